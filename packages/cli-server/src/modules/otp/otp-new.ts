import { newTotpEnrolment } from '@tessera/core/modules/otp';

/**
 * `tessera otp new --user NAME`: a fresh TOTP secret for the user's `otpSecret` setting, and its
 * `otpauth://` URI for an authenticator app. Returns the exit code.
 */
export function otpNew(username: string | undefined): number {
  if (!username?.trim()) {
    process.stderr.write('tessera otp new: --user NAME is required\n');
    return 2;
  }
  const { secret, uri } = newTotpEnrolment(username);
  process.stdout.write(`otpSecret: ${secret}\n${uri}\n`);
  return 0;
}
