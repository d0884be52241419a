import type { Authentication } from '../../domain/authentication/authentication.js';
import { describeCredential } from '../../domain/authentication/credential.js';
import { AuthenticationFailedError } from '../../domain/errors.js';
import type { RequestOrigin } from '../../domain/events.js';
import { withSecondFactor } from '../../domain/registry/multifactor-policy.js';
import type { RegisteredService } from '../../domain/registry/registered-service.js';
import type { SecondFactorRequirement } from '../../use-cases/second-factor-requirement.js';
import { oneTimePasswordCredential } from './credential.js';
import { INVALID_OTP, TOTP_SECOND_FACTOR, type TotpHandler } from './totp-handler.js';

/**
 * The TOTP code a service's `multifactorPolicy` asks of a login that has not given one: after the
 * password of a new login, or of a session from single sign-on (step-up). Asked only of users with a
 * secret; for the others the policy's failure mode decides when the ticket is granted.
 */
export class TotpStepUp {
  constructor(
    private readonly handler: TotpHandler,
    private readonly requirement: SecondFactorRequirement,
  ) {}

  /**
   * Whether this login must give a code before it gets a ticket for `service`: the policy lacks a
   * factor, and the code is the first of those the user has, in the policy's order.
   */
  async needed(authentication: Authentication, service: RegisteredService | undefined): Promise<boolean> {
    const [first] = await this.requirement.choices(service, authentication);
    return first?.id === TOTP_SECOND_FACTOR.id;
  }

  /** The login with the code proven (AuthenticationFailedError for a wrong or reused one): its session shows the factor from now on. */
  async prove(authentication: Authentication, code: string, origin?: RequestOrigin): Promise<Authentication> {
    const credential = oneTimePasswordCredential(authentication.principal.id, code);
    const principal = await this.handler.authenticate(credential, origin);
    if (principal.id !== authentication.principal.id) throw new AuthenticationFailedError([INVALID_OTP]);
    const handlerName = this.handler.name;
    return withSecondFactor(authentication, {
      ...authentication,
      credentials: [describeCredential(credential)],
      successes: { [handlerName]: { handlerName, credentialType: 'otp', principalId: principal.id } },
      attributes: { credentialType: ['otp'], successfulAuthenticationHandlers: [handlerName] },
    });
  }
}
