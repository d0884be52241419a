/** A user registered a WebAuthn device (self-registration in the login flow). */
export type WebAuthnRegisteredEvent = {
  readonly type: 'webauthn.registered';
  readonly username: string;
  /** The new device's credential id (base64url): a public identifier of the key. */
  readonly credentialId: string;
  /** A passkey its platform may sync to the user's other devices, rather than a key bound to one authenticator. */
  readonly multiDevice: boolean;
};

/**
 * An assertion whose signature counter did not move forward: a copy of the key (a cloned authenticator)
 * or an answer used twice. Refused; the device's record stays as it was.
 */
export type WebAuthnClonedEvent = {
  readonly type: 'webauthn.cloned';
  readonly username: string;
  readonly credentialId: string;
  /** The counter the assertion carried, and the one recorded. */
  readonly counter: number;
  readonly recorded: number;
};
