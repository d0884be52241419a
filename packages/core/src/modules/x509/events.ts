import type { CertificateSource } from './credential.js';

/**
 * A certificate in a request was left out of its credentials: a form or header certificate from a
 * peer that is not a trusted proxy (anyone could have written it), or one that cannot be read.
 */
export type CertificateIgnoredEvent = {
  readonly type: 'x509.certificate.ignored';
  readonly source: CertificateSource;
  readonly reason: 'untrusted peer' | 'unreadable';
  /** The TCP peer address the request came from. */
  readonly peer: string;
};
