import { isIP } from 'node:net';
import { z } from 'zod';
import { PRINCIPAL_ID_SOURCES } from '@tessera/core/modules/x509';
import { filePath, flag, integerFrom, section } from '../../config/setting-schemas.js';

const SOURCES = ['form', 'header', 'tls'] as const;

/** An address or CIDR range (IPv4 or IPv6), as `x509.trustedProxies` lists them. */
function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

function isRegularExpression(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/** Settings of the `x509` module (docs/protocol.md §2, §7); what it needs of the rest of the configuration is x509Problems'. */
export const x509Schema = section({
  sources: z
    .array(z.enum(SOURCES, { error: 'expected form, header or tls' }), { error: 'expected a list of form, header, tls' })
    .default([])
    .describe('Where client certificates are read, each switched on by name: `form` (parameter `cert`), `header` (`x509.headerName`), `tls` (the HTTPS listener’s handshake, `server.tls`). At least one with the `x509` module.'),
  trustedProxies: z
    .array(z.string({ error: 'expected an IP address or CIDR range' }).refine(isAddressOrRange, { error: 'expected an IP address or CIDR range, such as 10.0.0.5 or 10.0.0.0/24' }), {
      error: 'expected a list of IP addresses or CIDR ranges',
    })
    .default([])
    .describe('TCP peers (addresses or CIDR ranges, never `X-Forwarded-For`) whose `form` and `header` certificates are believed; from anyone else they are ignored and logged. Required with those sources.'),
  headerName: z
    .string({ error: 'expected a header name' })
    .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, { error: 'expected a header name' })
    .default('ssl_client_cert')
    .describe('Request header a TLS-terminating proxy puts the client certificate in (PEM, newlines as spaces allowed, or URL-encoded); `(null)` or empty: none.'),
  trustAnchors: z
    .array(filePath(), { error: 'expected a list of file paths' })
    .default([])
    .describe('PEM (or DER) files of the CA certificates client certificates must chain to. Required with the `x509` module; read at start.'),
  maxPathLength: integerFrom(1, 10)
    .default(1)
    .describe('Most certificates below a trust anchor, the client’s included: 1 = issued by a trust anchor itself, 2 = through one intermediate CA (sent with the client certificate). CAs’ own path length limits apply too.'),
  requireKeyUsage: flag().default(false).describe('Client certificates must carry a key usage extension with digitalSignature (one that is there is always honoured).'),
  requireClientAuth: flag().default(false).describe('Client certificates must carry an extended key usage extension with clientAuth (one that is there is always honoured).'),
  subjectPattern: z
    .string({ error: 'expected a regular expression' })
    .refine(isRegularExpression, { error: 'is not a valid regular expression' })
    .optional()
    .describe('Regular expression the whole subject DN (RFC 2253, e.g. `CN=alice,O=Example`) must match, case-insensitively; unset: any subject.'),
  principal: z
    .enum(PRINCIPAL_ID_SOURCES, { error: `expected ${PRINCIPAL_ID_SOURCES.join(', ')}` })
    .default('subjectDn')
    .describe('Principal id: `subjectDn` (RFC 2253), `cn`, `email` (subject alternative name, else the subject’s emailAddress) or `serialNumber` (decimal).'),
  crl: section({
    files: z.array(filePath(), { error: 'expected a list of file paths' }).default([]).describe('CRL files (PEM or DER, one CRL each); any switches revocation checking on for every certificate below a trust anchor.'),
    refreshSeconds: integerFrom(1, 86400)
      .default(300)
      .describe('The CRL files are read again by the first login after this many seconds, so a replaced file counts without a restart.'),
    failClosed: flag().default(true).describe('Refuse a certificate whose issuer has no current CRL (none among the files, or past its nextUpdate); `false` lets it pass. A listed certificate is always refused.'),
  }).prefault({}),
});

export type X509Config = z.output<typeof x509Schema>;

export interface X509Problem {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** What an enabled x509 module still lacks, each problem naming its setting. */
export function x509Problems(x509: X509Config, httpsListener: boolean): X509Problem[] {
  const problems: X509Problem[] = [];
  if (x509.trustAnchors.length === 0) problems.push({ path: ['x509', 'trustAnchors'], message: 'is required with the x509 module: list the PEM files of the CAs to trust' });
  if (x509.sources.length === 0) problems.push({ path: ['x509', 'sources'], message: 'name at least one of form, header, tls' });
  x509.sources.forEach((source, index) => {
    if (x509.sources.indexOf(source) !== index) problems.push({ path: ['x509', 'sources', index], message: `${source} is listed twice` });
  });
  const tls = x509.sources.indexOf('tls');
  if (tls >= 0 && !httpsListener) problems.push({ path: ['x509', 'sources', tls], message: 'tls needs an HTTPS listener: set server.tls.cert and server.tls.key' });
  if ((x509.sources.includes('form') || x509.sources.includes('header')) && x509.trustedProxies.length === 0) {
    problems.push({ path: ['x509', 'trustedProxies'], message: 'is required when x509.sources lists form or header: only trusted proxies may send certificates' });
  }
  return problems;
}

export const x509Sections = { x509: x509Schema.prefault({}) };
