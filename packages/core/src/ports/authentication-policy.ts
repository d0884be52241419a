import type { Credential, CredentialType } from '../domain/authentication/credential.js';
import type { Principal } from '../domain/authentication/principal.js';

/**
 * A rule over a whole authentication, checked once every credential was accepted for one principal
 * (CAS's authentication policies), e.g. "this user needs a one-time password too".
 */
export interface AuthenticationPolicy {
  /** A reason safe to show the caller when the authentication must fail; undefined when it may pass. */
  violation(principal: Principal, credentialTypes: readonly CredentialType[]): Promise<string | undefined>;

  /**
   * When these credentials fail, the one reason shown for any failure instead of each credential's own;
   * undefined to show those. Where several factors are checked, telling their failures apart would tell
   * the caller which factor was right. The `authentication.failed` event keeps the real reasons.
   */
  concealedFailure(credentials: readonly Credential[]): Promise<string | undefined>;
}
