import type { Credential } from '../../domain/authentication/credential.js';

/** Where a certificate came from: a form field or a header set by a trusted proxy, or this server's TLS handshake. */
export type CertificateSource = 'form' | 'header' | 'tls';

/**
 * An X.509 client certificate: the x509 module's credential kind. Form and header certificates prove
 * nothing about the private key; only trusted proxies may send them (the extractor's check). The
 * handler validates the chain. Its shown id is the client certificate's subject DN (RFC 2253).
 */
export interface X509Credential extends Credential {
  readonly type: 'x509';
  /** DER certificates, the client's first; any others are untrusted candidates for the path (intermediates). */
  readonly chain: readonly Uint8Array[];
  readonly source: CertificateSource;
  /** The client certificate's subject DN (RFC 2253), read when the credential was made. */
  readonly subject: string;
}

export function isX509Credential(credential: Credential): credential is X509Credential {
  return credential.type === 'x509';
}
