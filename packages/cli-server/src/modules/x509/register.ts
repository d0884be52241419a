import { trustedPeers, type CredentialExtractor } from '@tessera/adapter-koa';
import { formCertificateExtractor, headerCertificateExtractor, tlsCertificateExtractor } from '@tessera/adapter-koa/modules/x509';
import { type EventSink } from '@tessera/core';
import { PkijsCertificateValidator, X509CredentialHandler } from '@tessera/core/modules/x509';
import type { X509Config, x509Sections } from './config.js';
import { KEYS } from '../../keys.js';
import { CrlFiles, readTrustAnchors } from './certificate-files.js';
import type { ModuleRegistration } from '../module.js';

/**
 * `x509`: an extractor per enabled source (after username + password, as in CAS), and the handler
 * validating certificates with pkijs against the trust anchors and CRL files, which are read when
 * the app is built, so a missing or bad file stops the start naming its setting.
 */
export const registerX509Module: ModuleRegistration<typeof x509Sections> = (binder, { x509 }) => {
  for (const source of x509.sources) {
    binder.resolved(KEYS.CredentialExtractor, [KEYS.EventSink], (events) => extractorFor(source, x509, events));
  }
  binder.resolved(KEYS.CredentialHandler, [KEYS.Clock, KEYS.Logger], (clock, logger) => {
    const validator = new PkijsCertificateValidator(
      {
        trustAnchors: readTrustAnchors(x509.trustAnchors),
        maxPathLength: x509.maxPathLength,
        requireKeyUsage: x509.requireKeyUsage,
        requireClientAuth: x509.requireClientAuth,
        ...(x509.subjectPattern !== undefined && { subjectPattern: x509.subjectPattern }),
        ...(x509.crl.files.length > 0 && { revocation: { lists: new CrlFiles(x509.crl.files, x509.crl.refreshSeconds, clock, logger), failClosed: x509.crl.failClosed } }),
      },
      clock,
    );
    return new X509CredentialHandler('x509', validator, x509.principal);
  });
};

function extractorFor(source: X509Config['sources'][number], x509: X509Config, events: EventSink): CredentialExtractor {
  if (source === 'tls') return tlsCertificateExtractor(events);
  const options = { trustedPeer: trustedPeers(x509.trustedProxies), events };
  return source === 'form' ? formCertificateExtractor(options) : headerCertificateExtractor(x509.headerName, options);
}
