import type { Authentication } from '../../domain/authentication/authentication.js';
import { AuthenticationFailedError } from '../../domain/errors.js';
import type { RequestOrigin } from '../../domain/events.js';
import { withSecondFactor } from '../../domain/registry/multifactor-policy.js';
import type { CredentialsPrompt, LoginPageContext, PromptContext, SessionPrompt, SessionPromptAnswer } from '../../ports/login-prompt.js';
import type { EventSink } from '../../ports/event-sink.js';
import type { Clock } from '../../ports/clock.js';
import type { SecondFactorRequirement } from '../../use-cases/second-factor-requirement.js';
import { challengeOf, refused, type PreparedCeremony, type WebAuthnCeremonies } from './ceremonies.js';
import { WEBAUTHN_CREDENTIAL_TYPE } from './credential.js';
import type { WebAuthnRegisteredEvent } from './events.js';
import type { PasskeyChallenges } from './passkey-challenges.js';
import { WEBAUTHN_SECOND_FACTOR } from './second-factor.js';

/** What the passkey button's page part is given: the challenge's id in the store, and the options for the browser. */
export type PasskeyButton = { readonly challengeId: string; readonly options: PreparedCeremony['options'] };

/** What the registration page posts: the authenticator's answer (JSON text) and the name the user gave the device. */
export interface RegistrationAnswer {
  readonly response: string;
  readonly name: string;
}

/** The longest device name kept; a longer one is cut. */
export const DEVICE_NAME_LENGTH = 64;

/**
 * The login page's passkey button (a `credentials` prompt): each time the page is shown, a challenge
 * for any passkey of this site, under an id the page posts back with the answer (PasskeyChallenges:
 * nothing stored until it is answered); the module's extractor and PasskeyHandler then prove it as a
 * credential, as on REST.
 */
export class PasskeyButtonPrompt implements CredentialsPrompt<PasskeyButton> {
  readonly phase = 'credentials';
  readonly name = 'passkey';

  constructor(
    private readonly ceremonies: WebAuthnCeremonies,
    private readonly challenges: PasskeyChallenges,
  ) {}

  async prepare(_context: LoginPageContext): Promise<PasskeyButton> {
    const { id, challenge } = await this.challenges.issue();
    return { challengeId: id, options: await this.ceremonies.authenticationOptions([], 'required', challenge) };
  }
}

/**
 * The security key or passkey a service's `multifactorPolicy` asks of a login that has not given it
 * (`mfa-webauthn`): after the password, or of a session from single sign-on (step-up). Its page's
 * challenge is made each time the page is shown and kept with the held login (so answered once, as
 * the held login is taken once), for the user's own devices only, for `challengeSeconds`.
 */
export class WebAuthnPrompt implements SessionPrompt<PreparedCeremony, string> {
  readonly phase = 'session';
  readonly name = 'webauthn';
  readonly secondFactor = WEBAUTHN_SECOND_FACTOR.id;

  constructor(
    private readonly ceremonies: WebAuthnCeremonies,
    private readonly handlerName: string,
  ) {}

  async prepare(context: PromptContext): Promise<PreparedCeremony> {
    const devices = await this.ceremonies.devices.list(context.authentication.principal.id);
    return { options: await this.ceremonies.authenticationOptions(devices, this.ceremonies.settings.userVerification), expiresAt: this.ceremonies.expiry() };
  }

  async complete(context: PromptContext, response: string, origin: RequestOrigin, prepared: PreparedCeremony | undefined): Promise<SessionPromptAnswer> {
    if (prepared === undefined || !this.ceremonies.live(prepared)) throw refused();
    const username = context.authentication.principal.id;
    const { device } = await this.ceremonies.verifyAssertion(
      parsed(response),
      { challenge: challengeOf(prepared), username, requireUserVerification: this.ceremonies.settings.userVerification === 'required' },
      origin,
    );
    return { proceed: true, authentication: withWebAuthn(context.authentication, device.credentialId, this.handlerName) };
  }
}

/**
 * Self-registration (`webauthn.selfRegistration`): a login that must give `mfa-webauthn` for its
 * service, of a user who has no second factor at all, registers a security key or passkey after
 * the password, as Apereo's device registration does. The registration proves the new device in the
 * same gesture, so the login goes on with the factor given. Asked only where the policy would refuse
 * the user without a factor.
 */
export class WebAuthnRegistrationPrompt implements SessionPrompt<PreparedCeremony, RegistrationAnswer> {
  readonly phase = 'session';
  readonly name = 'webauthn-registration';

  constructor(
    private readonly ceremonies: WebAuthnCeremonies,
    private readonly factors: SecondFactorRequirement,
    private readonly settings: { readonly selfRegistration: boolean; readonly maxDevicesPerUser: number },
    private readonly handlerName: string,
    private readonly clock: Clock,
    private readonly events: EventSink,
  ) {}

  async needed(context: PromptContext): Promise<boolean> {
    return this.settings.selfRegistration && this.factors.mayRegister(WEBAUTHN_SECOND_FACTOR.id, context.service, context.authentication);
  }

  async prepare(context: PromptContext): Promise<PreparedCeremony> {
    const username = context.authentication.principal.id;
    const { devices } = this.ceremonies;
    const options = await this.ceremonies.registrationOptions(username, await devices.userHandle(username), await devices.list(username));
    return { options, expiresAt: this.ceremonies.expiry() };
  }

  async complete(context: PromptContext, answer: RegistrationAnswer, origin: RequestOrigin, prepared: PreparedCeremony | undefined): Promise<SessionPromptAnswer> {
    if (prepared === undefined || !this.ceremonies.live(prepared)) throw refused();
    const username = context.authentication.principal.id;
    const { devices } = this.ceremonies;
    const registration = await this.ceremonies.verifyRegistration(parsed(answer.response), challengeOf(prepared));
    if ((await devices.list(username)).length >= this.settings.maxDevicesPerUser) throw new AuthenticationFailedError(['No more devices may be registered for this user.']);
    const createdAt = this.clock.now();
    const name = answer.name.trim().slice(0, DEVICE_NAME_LENGTH) || `Security key ${new Date(createdAt).toISOString().slice(0, 10)}`;
    const userHandle = await devices.userHandle(username);
    if (!(await devices.add({ ...registration, username, userHandle, name, createdAt }))) throw refused();
    this.events.emit({ type: 'webauthn.registered', username, credentialId: registration.credentialId, multiDevice: registration.multiDevice } satisfies WebAuthnRegisteredEvent, origin);
    return { proceed: true, authentication: withWebAuthn(context.authentication, registration.credentialId, this.handlerName) };
  }
}

/** The login with a WebAuthn device proven: its session shows the factor from now on. */
function withWebAuthn(authentication: Authentication, credentialId: string, handlerName: string): Authentication {
  return withSecondFactor(authentication, {
    ...authentication,
    credentials: [{ type: WEBAUTHN_CREDENTIAL_TYPE, id: credentialId }],
    successes: { [handlerName]: { handlerName, credentialType: WEBAUTHN_CREDENTIAL_TYPE, principalId: authentication.principal.id } },
    attributes: { credentialType: [WEBAUTHN_CREDENTIAL_TYPE], successfulAuthenticationHandlers: [handlerName] },
  });
}

/** The posted JSON text, parsed; anything unreadable is refused like a wrong answer. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
