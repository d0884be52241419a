import type { ServicePolicy } from '../domain/registry/registered-service.js';
import { CHAINING_ATTRIBUTE_RELEASE_POLICY, type ChainingAttributes } from './chaining-policy.js';

export const DEFAULT_CONSENT_POLICY = 'org.apereo.cas.services.consent.DefaultRegisteredServiceConsentPolicy';

/**
 * Whether a service asks its users to agree to the release of their attributes, as CAS writes it:
 * TRUE (always, whatever the server's default), FALSE (never), UNDEFINED (as the server's default says).
 */
export const CONSENT_STATUSES = ['TRUE', 'FALSE', 'UNDEFINED'] as const;
export type ConsentStatus = (typeof CONSENT_STATUSES)[number];

/**
 * CAS's `consentPolicy` of a release policy (DefaultRegisteredServiceConsentPolicy): whether the user is
 * asked, and which of the released attributes the question lists and the decision covers.
 */
export interface ConsentPolicy {
  readonly status: ConsentStatus;
  /** Released attributes the question leaves out (not asked about, released all the same). */
  readonly excludedAttributes?: readonly string[];
  /** When given, the only released attributes the question lists. */
  readonly includeOnlyAttributes?: readonly string[];
  /** Service URL patterns (matched whole) for which nobody is asked. */
  readonly excludedServices?: readonly string[];
  /** Its place among the policies of a chain in CAS; kept as written. */
  readonly order?: number;
}

/** The consent policy a release policy holds, if any (every CAS release policy class may hold one). */
export function ownConsentPolicy(policy: ServicePolicy): ConsentPolicy | undefined {
  const held = (policy as { consentPolicy?: ConsentPolicy }).consentPolicy;
  return held === undefined ? undefined : held;
}

const UNDEFINED_POLICY: ConsentPolicy = { status: 'UNDEFINED' };

/**
 * The consent policy in effect for a service's release policy, as CAS reads it: the policy's own (none:
 * UNDEFINED), or for a chain, its policies' together: TRUE when any is TRUE, FALSE when all are FALSE,
 * else UNDEFINED; their attribute and service lists joined.
 */
export function effectiveConsentPolicy(policy: ServicePolicy): ConsentPolicy {
  if (policy.type !== CHAINING_ATTRIBUTE_RELEASE_POLICY) return ownConsentPolicy(policy) ?? UNDEFINED_POLICY;
  const members = (policy as ChainingAttributes).policies.map((member) => effectiveConsentPolicy(member.policy));
  const status: ConsentStatus = members.some((member) => member.status === 'TRUE')
    ? 'TRUE'
    : members.length > 0 && members.every((member) => member.status === 'FALSE')
      ? 'FALSE'
      : 'UNDEFINED';
  const joined = (pick: (member: ConsentPolicy) => readonly string[] | undefined): string[] => [...new Set(members.flatMap((member) => pick(member) ?? []))];
  const excludedAttributes = joined((member) => member.excludedAttributes);
  const includeOnlyAttributes = joined((member) => member.includeOnlyAttributes);
  const excludedServices = joined((member) => member.excludedServices);
  return {
    status,
    ...(excludedAttributes.length > 0 && { excludedAttributes }),
    ...(includeOnlyAttributes.length > 0 && { includeOnlyAttributes }),
    ...(excludedServices.length > 0 && { excludedServices }),
  };
}
