import type { AttributeMap } from '../domain/authentication/principal.js';

/** How a password is kept: a PHC hash string (argon2id), or plain text for demos only. */
export type StoredPassword = { readonly kind: 'hash'; readonly phc: string } | { readonly kind: 'plain'; readonly value: string };

/**
 * A user's fields beyond username, password and attributes, by name and as the user's source holds
 * them (a `users` entry's values, a Redis hash's strings, a MongoDB document's values): the fields
 * modules read of their users, the otp module's secret among them. Core reads none; each module
 * reads and checks its own, as a credential's handler reads its kind.
 */
export type UserFields = Readonly<Record<string, unknown>>;

export interface UserRecord {
  readonly username: string;
  readonly password: StoredPassword;
  readonly attributes: AttributeMap;
  /** Absent when the user has no other field. */
  readonly fields?: UserFields;
}

/** Users known to a password handler (configuration, a `users` collection, ...). */
export interface UserDirectory {
  /** Exact, case-sensitive username match. */
  findByUsername(username: string): Promise<UserRecord | undefined>;
}
