import { filePath, integerFrom, section } from '../../config/setting-schemas.js';

/** Settings of the `proxy` module (docs/protocol.md §13): how the server calls a proxy's callback URL. */
const proxySchema = section({
  callback: section({
    timeoutMs: integerFrom(1, 60_000)
      .default(5000)
      .describe('How long a call to a proxy callback URL (connection, TLS handshake and answer) may take; a slower callback gets no PGT, and the validation answers without one.'),
    caFile: filePath()
      .optional()
      .describe(
        'PEM file of the CA certificates a proxy callback’s certificate must chain to, instead of the CAs Node.js trusts by default (its bundled Mozilla list, and NODE_EXTRA_CA_CERTS). For the operating system’s list on Debian: /etc/ssl/certs/ca-certificates.crt.',
      ),
  }).prefault({}),
});

export const proxySections = { proxy: proxySchema.prefault({}) };
