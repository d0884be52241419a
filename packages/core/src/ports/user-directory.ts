import type { AttributeMap } from '../domain/authentication/principal.js';

/** How a password is kept: a PHC hash string (argon2id), or plain text for demos only. */
export type StoredPassword = { readonly kind: 'hash'; readonly phc: string } | { readonly kind: 'plain'; readonly value: string };

export interface UserRecord {
  readonly username: string;
  readonly password: StoredPassword;
  readonly attributes: AttributeMap;
}

/** Users known to a password handler (configuration, a `users` collection, ...). */
export interface UserDirectory {
  /** Exact, case-sensitive username match. */
  findByUsername(username: string): Promise<UserRecord | undefined>;
}
