import type { AttributeMap } from '../domain/authentication/principal.js';

/** How a password is kept: a PHC hash string (argon2id), or plain text for demos only. */
export type StoredPassword = { readonly kind: 'hash'; readonly phc: string } | { readonly kind: 'plain'; readonly value: string };

/** A user's TOTP setup (RFC 6238: SHA-1, 6 digits, 30 s steps, as authenticator apps default to). */
export interface OtpSetup {
  /** The shared secret, base32. */
  readonly secret: string;
  /** Without a one-time password this user cannot log in. */
  readonly required: boolean;
}

export interface UserRecord {
  readonly username: string;
  readonly password: StoredPassword;
  readonly attributes: AttributeMap;
  readonly otp?: OtpSetup;
}

/** Users known to a password handler (configuration, a `users` collection, ...). */
export interface UserDirectory {
  /** Exact, case-sensitive username match. */
  findByUsername(username: string): Promise<UserRecord | undefined>;
}
