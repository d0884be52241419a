import type { Authentication } from '../domain/authentication/authentication.js';

/**
 * A second factor a service's `multifactorPolicy` may ask (the otp module's TOTP, `mfa-gauth`): whether
 * a user can give it, and whether a login gave it. A user who cannot is let through or refused as the
 * policy's failure mode says.
 */
export interface SecondFactorProvider {
  /** Whether this user has the factor set up (a TOTP secret). */
  available(username: string): Promise<boolean>;
  /** Whether this login proved the factor (among its credentials, or added by a step-up). */
  proved(authentication: Authentication): boolean;
}
