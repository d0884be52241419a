import type { UserRecord } from '../../ports/user-directory.js';

/** A user's TOTP setup (RFC 6238: SHA-1, 6 digits, 30 s steps, as authenticator apps default to). */
export interface OtpSetup {
  /** The shared secret, base32. */
  readonly secret: string;
  /** Without a one-time password this user cannot log in. */
  readonly required: boolean;
}

/**
 * The otp module's fields of a user: `otpSecret` and `requireOtp` as a `users` entry holds them
 * (`requireOtp` a boolean) or a Redis hash does (`"true"` or `"false"`), or `otp: {secret, required}`
 * as a MongoDB document does. Strict: a value read as "no" by mistake would let the user in without a
 * code, so a field it cannot read fails with an error naming the user and the field, never the secret.
 */
export function otpSetupOf({ username, fields = {} }: UserRecord): OtpSetup | undefined {
  const { otp, otpSecret, requireOtp } = fields;
  if (otp !== undefined && otp !== null) return documentSetup(username, otp);
  const required = requirement(username, requireOtp);
  if (otpSecret === undefined) {
    if (required) throw new Error(`User '${username}' has requireOtp true but no otpSecret`);
    return undefined;
  }
  if (typeof otpSecret !== 'string') throw new Error(`User '${username}' has an otpSecret that is not a string`);
  return { secret: otpSecret, required };
}

function requirement(username: string, requireOtp: unknown): boolean {
  if (requireOtp === undefined) return false;
  if (requireOtp === true || requireOtp === 'true') return true;
  if (requireOtp === false || requireOtp === 'false') return false;
  throw new Error(`User '${username}' has requireOtp other than true or false`);
}

function documentSetup(username: string, otp: unknown): OtpSetup {
  const { secret, required } = (typeof otp === 'object' ? otp : {}) as Record<string, unknown>;
  if (typeof secret !== 'string' || typeof required !== 'boolean') throw new Error(`User '${username}' has an otp field other than {secret: string, required: boolean}`);
  return { secret, required };
}
