/**
 * The one reason shown for wrong credentials: an unknown user, a wrong password, and any wrong factor of a
 * multi-factor login alike, so the answer tells neither which accounts exist nor which factor was right.
 */
export const INVALID_CREDENTIALS = 'Invalid credentials. Please verify and try again.';

import type { CredentialMetadata, CredentialType } from './credential.js';
import type { AttributeMap, Principal } from './principal.js';

export interface HandlerSuccess {
  readonly handlerName: string;
  readonly credentialType: CredentialType;
  readonly principalId: string;
}

/** One successful authentication: who, when, with which credentials, accepted by which handlers. */
export interface Authentication {
  readonly principal: Principal;
  readonly authenticatedAt: number;
  readonly credentials: readonly CredentialMetadata[];
  readonly successes: Readonly<Record<string, HandlerSuccess>>;
  /** Authentication metadata (credential types, handler names), distinct from principal attributes. */
  readonly attributes: AttributeMap;
}
