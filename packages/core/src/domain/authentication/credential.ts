/**
 * What a request presents to prove an identity. A discriminated union on `type`: each module
 * (x509, otp) adds its member together with its extractor (adapter-koa) and handler (core).
 */
export interface UsernamePasswordCredential {
  readonly type: 'usernamePassword';
  readonly username: string;
  readonly password: string;
}

/** A TOTP code (RFC 6238) for the user named in the same request (module `otp`). */
export interface OneTimePasswordCredential {
  readonly type: 'otp';
  readonly username: string;
  readonly code: string;
}

/** Where a certificate came from: a form field or a header set by a trusted proxy, or this server's TLS handshake. */
export type CertificateSource = 'form' | 'header' | 'tls';

/**
 * An X.509 client certificate (module `x509`). Form and header certificates prove nothing about the
 * private key; only trusted proxies may send them (the extractor's check). The handler validates the chain.
 */
export interface X509Credential {
  readonly type: 'x509';
  /** DER certificates, the client's first; any others are untrusted candidates for the path (intermediates). */
  readonly chain: readonly Uint8Array[];
  readonly source: CertificateSource;
  /** The client certificate's subject DN (RFC 2253), read when the credential was made: its shown id. */
  readonly subject: string;
}

export type Credential = UsernamePasswordCredential | OneTimePasswordCredential | X509Credential;
export type CredentialType = Credential['type'];

/** What may be shown about a credential: its type and a non-secret identifier. */
export interface CredentialMetadata {
  readonly id: string;
  readonly type: CredentialType;
}

export function describeCredential(credential: Credential): CredentialMetadata {
  switch (credential.type) {
    case 'usernamePassword':
    case 'otp':
      return { id: credential.username, type: credential.type };
    case 'x509':
      return { id: credential.subject, type: credential.type };
  }
}
