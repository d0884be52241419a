import type { Credential } from '../../domain/authentication/credential.js';

/** The webauthn module's credential kind: a WebAuthn assertion (a passkey or security key signing a challenge). */
export const WEBAUTHN_CREDENTIAL_TYPE = 'webauthn';

/**
 * A WebAuthn assertion posted by the login page's passkey button: the authenticator's answer as
 * `@simplewebauthn/browser` encodes it (JSON, unchecked until a handler verifies it) and the id of the
 * challenge the page was given. Its shown `id` is the WebAuthn credential id the answer names (a public
 * identifier of the key, never a secret): no username is sent with it.
 */
export interface WebAuthnAssertionCredential extends Credential {
  readonly type: typeof WEBAUTHN_CREDENTIAL_TYPE;
  readonly challengeId: string;
  /** The parsed `AuthenticationResponseJSON`, or undefined when the post was no JSON object. */
  readonly response: unknown;
}

export function webAuthnAssertionCredential(challengeId: string, response: unknown): WebAuthnAssertionCredential {
  const id = typeof response === 'object' && response !== null && typeof (response as { id?: unknown }).id === 'string' ? (response as { id: string }).id : '';
  return { type: WEBAUTHN_CREDENTIAL_TYPE, id, challengeId, response };
}

export function isWebAuthnAssertionCredential(credential: Credential): credential is WebAuthnAssertionCredential {
  return credential.type === WEBAUTHN_CREDENTIAL_TYPE && 'challengeId' in credential;
}
