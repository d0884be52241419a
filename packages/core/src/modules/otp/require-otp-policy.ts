import { INVALID_CREDENTIALS } from '../../domain/authentication/authentication.js';
import { isUsernamePasswordCredential, type Credential, type CredentialType } from '../../domain/authentication/credential.js';
import type { Principal } from '../../domain/authentication/principal.js';
import type { AuthenticationPolicy } from '../../ports/authentication-policy.js';
import type { UserDirectory } from '../../ports/user-directory.js';
import { isOneTimePasswordCredential } from './credential.js';

export const OTP_REQUIRED = 'A one-time password is required for this user.';
export const OTP_ALONE = 'A one-time password must come with the password.';

/**
 * The second factor rules of the otp module: a user set up with `required` needs an accepted OTP in
 * the same request, and an OTP never logs in on its own (six digits are no password). Until every
 * factor is right, a login with a code, or of a user who needs one, fails with INVALID_CREDENTIALS
 * alone: a wrong password, a wrong, reused or missing code and a code alone all look the same.
 */
export class RequireOtpPolicy implements AuthenticationPolicy {
  constructor(private readonly directory: UserDirectory) {}

  async violation(principal: Principal, credentialTypes: readonly CredentialType[]): Promise<string | undefined> {
    const withOtp = credentialTypes.includes('otp');
    if (withOtp && credentialTypes.every((type) => type === 'otp')) return OTP_ALONE;
    if (withOtp) return undefined;
    const user = await this.directory.findByUsername(principal.id);
    return user?.otp?.required ? OTP_REQUIRED : undefined;
  }

  async concealedFailure(credentials: readonly Credential[]): Promise<string | undefined> {
    if (credentials.some(isOneTimePasswordCredential)) return INVALID_CREDENTIALS;
    const usernames = credentials.filter(isUsernamePasswordCredential).map((credential) => credential.username);
    const users = await Promise.all(usernames.map((username) => this.directory.findByUsername(username)));
    return users.some((user) => user?.otp?.required) ? INVALID_CREDENTIALS : undefined;
  }
}
