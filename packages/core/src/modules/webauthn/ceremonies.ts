import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { AuthenticationFailedError } from '../../domain/errors.js';
import type { RequestOrigin } from '../../domain/events.js';
import type { Clock } from '../../ports/clock.js';
import type { EventSink } from '../../ports/event-sink.js';
import type { RandomSource } from '../../ports/random-source.js';
import type { JsonValue } from '../../ports/record-store.js';
import type { WebAuthnDevice, WebAuthnDevices } from './devices.js';
import type { WebAuthnClonedEvent } from './events.js';

/**
 * Who the credentials are for (the WebAuthn relying party): its id, the host of the server's public
 * URL, and the one origin assertions must come from, that URL's; never the request's Host.
 */
export interface WebAuthnRelyingParty {
  readonly id: string;
  readonly origin: string;
  /** Shown by the authenticator when a key is registered. */
  readonly name: string;
}

export type UserVerification = 'required' | 'preferred' | 'discouraged';

export interface WebAuthnSettings {
  readonly relyingParty: WebAuthnRelyingParty;
  /** How long a challenge may be answered. */
  readonly challengeSeconds: number;
  /** What the second factor asks of the authenticator (a PIN or a fingerprint); `required` refuses an answer without it. */
  readonly userVerification: UserVerification;
}

/** The one message for every refused answer: what went wrong is in the log, never on the page. */
export const WEBAUTHN_REFUSED = 'The security key or passkey was not accepted.';

const CHALLENGE_BYTES = 32;

/**
 * The library, loaded at the first ceremony: it takes a second to load (its ASN.1 and X.509 parts), which
 * every `tessera` command would pay for at start, since module declarations are read by each.
 */
const library = () => import('@simplewebauthn/server');

/** A challenge's options as the browser's `@simplewebauthn/browser` takes them, and when it stops being answerable. */
export type PreparedCeremony = { readonly options: JsonValue; readonly expiresAt: number };

/** A device whose assertion was verified and counted. */
export interface VerifiedAssertion {
  readonly device: WebAuthnDevice;
  readonly userVerified: boolean;
}

/** A registration response verified: the device it makes, not yet stored. */
export type VerifiedRegistration = Omit<WebAuthnDevice, 'username' | 'userHandle' | 'name' | 'createdAt'>;

/**
 * The WebAuthn ceremonies on `@simplewebauthn/server`: options for the browser (challenges drawn from
 * the RandomSource, attestation `none`, resident keys preferred) and the verification of what comes
 * back (challenge, origin, RP id, signature, user presence and verification as asked), then the
 * device's counter moved forward in one step of its store. Every refusal is AuthenticationFailedError
 * with one message; a counter that went back is reported (`webauthn.cloned`).
 */
export class WebAuthnCeremonies {
  constructor(
    readonly settings: WebAuthnSettings,
    readonly devices: WebAuthnDevices,
    private readonly random: RandomSource,
    private readonly clock: Clock,
    private readonly events: EventSink,
  ) {}

  /** When a challenge made now stops being answerable. */
  expiry(): number {
    return this.clock.now() + this.settings.challengeSeconds * 1000;
  }

  /** Whether a prepared challenge may still be answered. */
  live(prepared: { readonly expiresAt: number } | undefined): boolean {
    return prepared !== undefined && prepared.expiresAt > this.clock.now();
  }

  /**
   * The options of an assertion: of the user's devices (a second factor), or of any passkey of this site
   * (`devices` empty: the browser lists them); its challenge from the random source, or the one given.
   */
  async authenticationOptions(devices: readonly WebAuthnDevice[], userVerification: UserVerification, challenge?: Uint8Array<ArrayBuffer>): Promise<JsonValue> {
    const options = await (await library()).generateAuthenticationOptions({
      rpID: this.settings.relyingParty.id,
      challenge: challenge ?? new Uint8Array(this.random.bytes(CHALLENGE_BYTES)),
      timeout: this.settings.challengeSeconds * 1000,
      userVerification,
      allowCredentials: devices.map((device) => ({ id: device.credentialId, transports: [...device.transports] })),
    });
    return json(options);
  }

  /** The options of a registration for the user: attestation `none`, a resident key (passkey) preferred, the user's devices excluded. */
  async registrationOptions(username: string, userHandle: string, existing: readonly WebAuthnDevice[]): Promise<JsonValue> {
    const { relyingParty } = this.settings;
    const options = await (await library()).generateRegistrationOptions({
      rpName: relyingParty.name,
      rpID: relyingParty.id,
      userName: username,
      userDisplayName: username,
      userID: new Uint8Array(Buffer.from(userHandle, 'base64url')),
      challenge: new Uint8Array(this.random.bytes(CHALLENGE_BYTES)),
      timeout: this.settings.challengeSeconds * 1000,
      attestationType: 'none',
      excludeCredentials: existing.map((device) => ({ id: device.credentialId, transports: [...device.transports] })),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    });
    return json(options);
  }

  /**
   * An assertion answering `challenge`: of a registered device (of `username` when given: a credential
   * id of another user is refused like an unknown one), its signature checked against the device's key,
   * from this origin and RP id, with user verification when `requireUserVerification`; its counter then
   * moved forward, or refused as a clone.
   */
  async verifyAssertion(
    response: unknown,
    expected: { readonly challenge: string; readonly username?: string; readonly requireUserVerification: boolean },
    origin?: RequestOrigin,
  ): Promise<VerifiedAssertion> {
    if (!isResponse(response)) throw refused();
    const device = await this.devices.find(response.id);
    if (device === undefined || (expected.username !== undefined && device.username !== expected.username)) throw refused();
    const assertion = response as unknown as AuthenticationResponseJSON;
    // A discoverable credential names its user: it must be the device's.
    const userHandle = (assertion.response as { userHandle?: unknown } | undefined)?.userHandle;
    if (userHandle !== undefined && userHandle !== device.userHandle) throw refused();
    const { verifyAuthenticationResponse } = await library();
    let verified;
    try {
      verified = await verifyAuthenticationResponse({
        response: assertion,
        expectedChallenge: expected.challenge,
        expectedOrigin: this.settings.relyingParty.origin,
        expectedRPID: this.settings.relyingParty.id,
        // The counter is checked below, in the same step that records it.
        credential: { id: device.credentialId, publicKey: Buffer.from(device.publicKey, 'base64url'), counter: 0, transports: [...device.transports] },
        requireUserVerification: expected.requireUserVerification,
      });
    } catch {
      // Malformed, or a wrong challenge, origin, RP id, type or flag: the library says which, the user sees one message.
      throw refused();
    }
    if (!verified.verified) throw refused();
    const { newCounter, credentialBackedUp, userVerified } = verified.authenticationInfo;
    const use = await this.devices.used(device.credentialId, newCounter, credentialBackedUp);
    if (use === 'cloned') {
      const recorded = (await this.devices.find(device.credentialId))?.counter ?? device.counter;
      this.events.emit({ type: 'webauthn.cloned', username: device.username, credentialId: device.credentialId, counter: newCounter, recorded } satisfies WebAuthnClonedEvent, origin);
    }
    if (use !== 'counted') throw refused();
    return { device, userVerified };
  }

  /** A registration answering `challenge`, from this origin and RP id, its attestation checked: the device it makes. */
  async verifyRegistration(response: unknown, challenge: string): Promise<VerifiedRegistration> {
    if (!isResponse(response)) throw refused();
    const { verifyRegistrationResponse } = await library();
    let verified;
    try {
      verified = await verifyRegistrationResponse({
        response: response as unknown as RegistrationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: this.settings.relyingParty.origin,
        expectedRPID: this.settings.relyingParty.id,
        requireUserVerification: false,
      });
    } catch {
      throw refused();
    }
    if (!verified.verified) throw refused();
    const { credential, credentialDeviceType, credentialBackedUp } = verified.registrationInfo;
    return {
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: (credential.transports ?? []).filter((transport) => typeof transport === 'string').slice(0, 8),
      multiDevice: credentialDeviceType === 'multiDevice',
      backedUp: credentialBackedUp,
    };
  }
}

/** The one refusal of every wrong answer. */
export function refused(): AuthenticationFailedError {
  return new AuthenticationFailedError([WEBAUTHN_REFUSED]);
}

/** The challenge a prepared ceremony's options hold. */
export function challengeOf(prepared: PreparedCeremony): string {
  const options = prepared.options as { readonly challenge?: unknown };
  return typeof options.challenge === 'string' ? options.challenge : '';
}

/** Just enough of a response's shape to look its device up: an object with a string `id` and an object `response`. */
function isResponse(value: unknown): value is { readonly id: string; readonly response: object } {
  if (typeof value !== 'object' || value === null) return false;
  const { id, response } = value as { id?: unknown; response?: unknown };
  return typeof id === 'string' && id.length > 0 && typeof response === 'object' && response !== null;
}

/** The library's options as a record holds them: JSON. */
function json(value: unknown): JsonValue {
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}
