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

export type Credential = UsernamePasswordCredential | OneTimePasswordCredential;
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
  }
}
