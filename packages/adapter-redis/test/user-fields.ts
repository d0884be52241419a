import type { UserRecord } from '@tessera/core';

/** A user's hash as an operator writes it (docs/storage.md, Redis: adding a user by hand), as HSET's field-value list. */
export function userFields({ password, attributes, otp }: UserRecord): string[] {
  const secret = password.kind === 'hash' ? ['passwordHash', password.phc] : ['password', password.value];
  const otpFields = otp === undefined ? [] : ['otpSecret', otp.secret, 'requireOtp', String(otp.required)];
  return [...secret, 'attributes', JSON.stringify(attributes), ...otpFields];
}
