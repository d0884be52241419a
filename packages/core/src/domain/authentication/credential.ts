/**
 * What a request presents to prove an identity. The kinds are open: core knows the username and
 * password every entry point reads; a module adds its kind (otp, x509) in its own folder, with its
 * extractor (adapter-koa) and handler, and declares it (docs/adding-a-module.md). Handlers tell
 * their kind by `type`.
 */
export interface Credential {
  /** The kind, e.g. `usernamePassword`: handlers choose by it, and events and SAML name it. */
  readonly type: string;
  /** What may be shown of it (log, audit trail, the TGT's authentication): a username, a certificate's subject; never a secret. */
  readonly id: string;
}

export interface UsernamePasswordCredential extends Credential {
  readonly type: 'usernamePassword';
  readonly username: string;
  readonly password: string;
}

export function usernamePasswordCredential(username: string, password: string): UsernamePasswordCredential {
  return { type: 'usernamePassword', id: username, username, password };
}

export function isUsernamePasswordCredential(credential: Credential): credential is UsernamePasswordCredential {
  return credential.type === 'usernamePassword';
}

export type CredentialType = Credential['type'];

/** What may be shown about a credential: its type and a non-secret identifier. */
export interface CredentialMetadata {
  readonly id: string;
  readonly type: CredentialType;
}

export function describeCredential({ id, type }: Credential): CredentialMetadata {
  return { id, type };
}
