import { Secret, TOTP } from 'otpauth';
import type { Authentication } from '../../domain/authentication/authentication.js';
import type { Credential } from '../../domain/authentication/credential.js';
import { isOneTimePasswordCredential } from './credential.js';
import type { OtpReusedEvent } from './events.js';
import type { Principal } from '../../domain/authentication/principal.js';
import { AuthenticationFailedError } from '../../domain/errors.js';
import type { RequestOrigin } from '../../domain/events.js';
import type { Clock } from '../../ports/clock.js';
import type { CredentialHandler } from '../../ports/credential-handler.js';
import type { EventSink } from '../../ports/event-sink.js';
import type { OtpSetups } from './otp-enrolments.js';
import type { OtpReplayStore } from './otp-replay-store.js';
import type { SecondFactorDeclaration } from '../../domain/registry/multifactor-policy.js';
import type { SecondFactorProvider } from '../../ports/second-factor.js';

/** One reason for an unknown user, a user without OTP and a wrong code: nothing to tell them apart. */
export const INVALID_OTP = 'Invalid one-time password.';
export const REUSED_OTP = 'This one-time password was already used; wait for the next one.';

/**
 * TOTP codes (RFC 6238) against the user's secret (the user directory's, else the one the user enrolled). A code of the current 30 s step or
 * the one before or after is accepted, and only once: the step accepted last is claimed atomically,
 * so a code (or an older one) replayed, even on another node, is refused and reported.
 */
export class TotpHandler implements CredentialHandler {
  constructor(
    readonly name: string,
    private readonly setups: OtpSetups,
    private readonly replays: OtpReplayStore,
    private readonly clock: Clock,
    private readonly events: EventSink,
  ) {}

  supports(credential: Credential): boolean {
    return isOneTimePasswordCredential(credential);
  }

  async authenticate(credential: Credential, origin?: RequestOrigin): Promise<Principal> {
    if (!isOneTimePasswordCredential(credential) || !/^\d{6}$/.test(credential.code)) throw new AuthenticationFailedError([INVALID_OTP]);
    const found = await this.setups.find(credential.username);
    if (!found) throw new AuthenticationFailedError([INVALID_OTP]);
    await this.accept(credential.username, found.setup.secret, credential.code, origin);
    return { id: credential.username, attributes: found.attributes };
  }

  /**
   * A code of `secret` (the step now or one either side), claimed once for the user: a wrong code is
   * refused, a code used before (or an older one) refused and reported.
   */
  async accept(username: string, secret: string, code: string, origin?: RequestOrigin): Promise<void> {
    if (!/^\d{6}$/.test(code)) throw new AuthenticationFailedError([INVALID_OTP]);
    const now = this.clock.now();
    const delta = TOTP.validate({ token: code, secret: Secret.fromBase32(secret), timestamp: now, window: 1 });
    if (delta === null) throw new AuthenticationFailedError([INVALID_OTP]);
    if (!(await this.replays.claim(username, TOTP.counter({ timestamp: now }) + delta))) {
      this.events.emit({ type: 'otp.reused', username } satisfies OtpReusedEvent, origin);
      throw new AuthenticationFailedError([REUSED_OTP]);
    }
  }
}

/** The otp module's second factor, under Apereo's id for Google Authenticator, which services' `multifactorPolicy` name. */
export const TOTP_SECOND_FACTOR: SecondFactorDeclaration = { id: 'mfa-gauth', description: 'a one-time code' };

/** The otp module's second factor for services' `multifactorPolicy` (`mfa-gauth`): users with a TOTP secret (configured or enrolled) can give it. */
export class TotpSecondFactor implements SecondFactorProvider {
  readonly id = TOTP_SECOND_FACTOR.id;
  readonly description = TOTP_SECOND_FACTOR.description;

  constructor(private readonly setups: OtpSetups) {}

  async available(username: string): Promise<boolean> {
    return (await this.setups.of(username)) !== undefined;
  }

  /** A one-time code among the login's credentials, or added by a step-up. */
  proved(authentication: Authentication): boolean {
    return (authentication.attributes['credentialType'] ?? []).includes('otp');
  }
}
