import type { Authentication } from '../authentication/authentication.js';
import type { AttributeMap } from '../authentication/principal.js';

/**
 * A second-factor provider as the module that brings it declares it: its id, as Apereo names its
 * providers (`mfa-gauth`, `mfa-webauthn`, …), which a service's `multifactorPolicy` names, and what the
 * user gives, as refusals and pages name it ("a one-time code"). The service codec knows every listed
 * module's, on or off, so a definition means the same whichever modules a deployment runs.
 */
export interface SecondFactorDeclaration {
  readonly id: string;
  /** What the user gives, in a few words that fit "The service asks for a second factor (…)". */
  readonly description: string;
}

/**
 * What happens when the user cannot give the factor (none of the policy's providers set up for the
 * user, or their modules off): CLOSED refuses
 * the ticket; OPEN and PHANTOM let the user through without it, reported; NONE lets through without a
 * word. UNDEFINED, Apereo's default, falls back to the global mode, which is CLOSED.
 */
export const MFA_FAILURE_MODES = ['UNDEFINED', 'CLOSED', 'OPEN', 'PHANTOM', 'NONE'] as const;
export type MfaFailureMode = (typeof MFA_FAILURE_MODES)[number];

/**
 * Apereo's `multifactorPolicy` (DefaultRegisteredServiceMultifactorPolicy): the service asks a second
 * factor of its users, also of a session that came from single sign-on without one (step-up).
 */
export interface MultifactorPolicy {
  /**
   * `multifactorAuthenticationProviders`: the ids of the providers any one of which meets the policy,
   * in the order the definition lists them; empty asks nothing.
   */
  readonly providers: readonly string[];
  readonly failureMode: MfaFailureMode;
  /** `bypassEnabled`: the policy is switched off for this service. */
  readonly bypassEnabled: boolean;
  /** `principalAttributeNameTrigger`: asked only of users with this attribute, a value matching `principalAttributeValueToMatch`. */
  readonly principalAttributeNameTrigger?: string;
  /** `principalAttributeValueToMatch`: a regex, matched against each value, anywhere in it, case sensitive. */
  readonly principalAttributeValueToMatch?: string;
  /** `bypassPrincipalAttributeName`: users with this attribute (a value matching `bypassPrincipalAttributeValue`, when given) are not asked. */
  readonly bypassPrincipalAttributeName?: string;
  readonly bypassPrincipalAttributeValue?: string;
}

/** Whether the policy asks a second factor of this principal at all (before looking at what the login proved). */
export function asksSecondFactor(policy: MultifactorPolicy | undefined, attributes: AttributeMap): boolean {
  if (policy === undefined || policy.bypassEnabled || policy.providers.length === 0) return false;
  const { bypassPrincipalAttributeName: bypassName, bypassPrincipalAttributeValue: bypassValue } = policy;
  if (bypassName !== undefined && hasMatchingValue(attributes, bypassName, bypassValue)) return false;
  const trigger = policy.principalAttributeNameTrigger;
  if (trigger !== undefined) return hasMatchingValue(attributes, trigger, policy.principalAttributeValueToMatch);
  return true;
}

/** Whether the failure mode lets a user who cannot give the factor through (without it). */
export function failsOpen(policy: MultifactorPolicy): boolean {
  return policy.failureMode === 'OPEN' || policy.failureMode === 'PHANTOM' || policy.failureMode === 'NONE';
}

function hasMatchingValue(attributes: AttributeMap, name: string, pattern: string | undefined): boolean {
  const values = attributes[name] ?? [];
  if (pattern === undefined) return values.length > 0;
  const regex = new RegExp(pattern);
  return values.some((value) => regex.test(value));
}

/**
 * A login's authentication with a factor proven after it (step-up): the same principal and time of
 * login, the factor's credentials and handlers added, so the session shows both from now on.
 */
export function withSecondFactor(authentication: Authentication, factor: Authentication): Authentication {
  const union = (name: string) => [...new Set([...(authentication.attributes[name] ?? []), ...(factor.attributes[name] ?? [])])];
  return {
    ...authentication,
    credentials: [...authentication.credentials, ...factor.credentials],
    successes: { ...authentication.successes, ...factor.successes },
    attributes: { ...authentication.attributes, credentialType: union('credentialType'), successfulAuthenticationHandlers: union('successfulAuthenticationHandlers') },
  };
}
