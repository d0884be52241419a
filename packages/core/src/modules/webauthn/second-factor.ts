import type { Authentication } from '../../domain/authentication/authentication.js';
import type { SecondFactorDeclaration } from '../../domain/registry/multifactor-policy.js';
import type { SecondFactorProvider } from '../../ports/second-factor.js';
import { WEBAUTHN_CREDENTIAL_TYPE } from './credential.js';
import type { WebAuthnDevices } from './devices.js';

/** The webauthn module's second factor, under Apereo's id for WebAuthn, which services' `multifactorPolicy` name. */
export const WEBAUTHN_SECOND_FACTOR: SecondFactorDeclaration = { id: 'mfa-webauthn', description: 'a security key or passkey' };

/**
 * `mfa-webauthn`: users with a registered device can give it; a login proved it with an assertion of
 * one, after the password or as the passkey login itself (a passkey proves what the factor asks:
 * possession of a registered key, as Apereo counts its provider satisfied).
 */
export class WebAuthnSecondFactor implements SecondFactorProvider {
  readonly id = WEBAUTHN_SECOND_FACTOR.id;
  readonly description = WEBAUTHN_SECOND_FACTOR.description;

  constructor(private readonly devices: WebAuthnDevices) {}

  async available(username: string): Promise<boolean> {
    return (await this.devices.list(username)).length > 0;
  }

  proved(authentication: Authentication): boolean {
    return (authentication.attributes['credentialType'] ?? []).includes(WEBAUTHN_CREDENTIAL_TYPE);
  }
}
