import type { Authentication } from '../../domain/authentication/authentication.js';
import { describeCredential } from '../../domain/authentication/credential.js';
import { AuthenticationFailedError } from '../../domain/errors.js';
import type { RequestOrigin } from '../../domain/events.js';
import { withSecondFactor } from '../../domain/registry/multifactor-policy.js';
import type { CredentialsPrompt, PromptContext, SessionPrompt, SessionPromptAnswer } from '../../ports/login-prompt.js';
import { oneTimePasswordCredential } from './credential.js';
import { INVALID_OTP, TOTP_SECOND_FACTOR, type TotpHandler } from './totp-handler.js';

/**
 * The otp module's part of the login page: the code's field beside the password, for users whose
 * account needs one (`requireOtp`) or who give it anyway. Its extractor reads it, as on REST.
 */
export const OTP_FIELD_PROMPT: CredentialsPrompt = { phase: 'credentials', name: 'otp-field' };

/**
 * The TOTP code a service's `multifactorPolicy` asks of a login that has not given one (`mfa-gauth`):
 * after the password of a new login, or of a session from single sign-on (step-up). The login asks it
 * of users with a secret, when the service lacks a factor and the code is the one they have or chose;
 * for the others the policy's failure mode decides when the ticket is granted.
 */
export class TotpPrompt implements SessionPrompt<never, string> {
  readonly phase = 'session';
  /** The name earlier versions held their logins' code step under. */
  readonly name = 'otp';
  readonly secondFactor = TOTP_SECOND_FACTOR.id;

  constructor(private readonly handler: TotpHandler) {}

  async complete(context: PromptContext, code: string, origin: RequestOrigin): Promise<SessionPromptAnswer> {
    return { proceed: true, authentication: await this.prove(context.authentication, code, origin) };
  }

  /** The login with the code proven (AuthenticationFailedError for a wrong or reused one): its session shows the factor from now on. */
  async prove(authentication: Authentication, code: string, origin?: RequestOrigin): Promise<Authentication> {
    const credential = oneTimePasswordCredential(authentication.principal.id, code);
    const principal = await this.handler.authenticate(credential, origin);
    if (principal.id !== authentication.principal.id) throw new AuthenticationFailedError([INVALID_OTP]);
    return this.withCode(authentication, code);
  }

  /** The login with a code of `secret` proven (a secret being enrolled, not yet the user's): as `prove`. */
  async proveWith(authentication: Authentication, secret: string, code: string, origin?: RequestOrigin): Promise<Authentication> {
    await this.handler.accept(authentication.principal.id, secret, code.trim(), origin);
    return this.withCode(authentication, code);
  }

  private withCode(authentication: Authentication, code: string): Authentication {
    const credential = oneTimePasswordCredential(authentication.principal.id, code);
    const handlerName = this.handler.name;
    return withSecondFactor(authentication, {
      ...authentication,
      credentials: [describeCredential(credential)],
      successes: { [handlerName]: { handlerName, credentialType: 'otp', principalId: authentication.principal.id } },
      attributes: { credentialType: ['otp'], successfulAuthenticationHandlers: [handlerName] },
    });
  }
}
