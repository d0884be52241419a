import type { Authentication } from '../domain/authentication/authentication.js';
import type { SecondFactorDeclaration } from '../domain/registry/multifactor-policy.js';

/**
 * A second factor a service's `multifactorPolicy` may ask by its id (Apereo's provider id: `mfa-gauth`
 * for TOTP codes): whether a user can give it, and whether a login gave it. Each module that brings
 * one binds it (multi-bound, ids unique); a policy naming several is met by any one, and the browser
 * login lets the user choose among those the user has. A user who has none of them is let through
 * or refused as the policy's failure mode says.
 */
export interface SecondFactorProvider extends SecondFactorDeclaration {
  /** Whether this user has the factor set up (a TOTP secret, a registered security key). */
  available(username: string): Promise<boolean>;
  /** Whether this login proved the factor (among its credentials, or added by a step-up). */
  proved(authentication: Authentication): boolean;
}
