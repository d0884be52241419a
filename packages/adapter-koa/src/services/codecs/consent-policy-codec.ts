import { compileFullMatch, CONSENT_STATUSES, DEFAULT_CONSENT_POLICY, type ConsentPolicy, type ConsentStatus, type InvalidServiceDefinitionError, type ServiceDefinitionProblem } from '@tessera/core';
import { isClass, isRecord, keyProblems, type KeyRules } from './cas-service-keys.js';
import { javaInteger, javaSet, stringList } from './java-collections.js';

type Fail = (field: string, problem: string) => InvalidServiceDefinitionError;

const DEFAULT_CLASS = 'DefaultRegisteredServiceConsentPolicy';

/** DefaultRegisteredServiceConsentPolicy; `enabled` is how CAS 5 and 6.0 wrote what `status` says since. */
const CONSENT_POLICY_KEYS: KeyRules = { read: ['@class', 'status', 'enabled', 'excludedAttributes', 'includeOnlyAttributes', 'excludedServices', 'order'] };

/** Problems with the keys of a `consentPolicy`; its class and values are checked by parseConsentPolicy. */
export function consentPolicyKeyProblems(json: unknown, field: string): ServiceDefinitionProblem[] {
  return isRecord(json) && isClass(json['@class'], DEFAULT_CLASS) ? keyProblems(json, CONSENT_POLICY_KEYS, `${field}.`) : [];
}

/** A `consentPolicy` as CAS writes it; undefined when absent. Every value problem is reported by its field. */
export function parseConsentPolicy(json: unknown, fail: Fail): ConsentPolicy | undefined {
  if (json === undefined || json === null) return undefined;
  if (!isRecord(json) || !isClass(json['@class'], DEFAULT_CLASS)) {
    throw fail('@class', `must be ${DEFAULT_CONSENT_POLICY} (a chain's policies each hold their own consentPolicy)`);
  }
  const status = consentStatus(json, fail);
  const names = (key: string, what: string): string[] | undefined => {
    const value = json[key] ?? undefined;
    if (value === undefined) return undefined;
    const list = stringList(value);
    if (!list) throw fail(key, `must be a list of ${what}`);
    return list.length > 0 ? list : undefined;
  };
  const excludedAttributes = names('excludedAttributes', 'attribute names');
  const includeOnlyAttributes = names('includeOnlyAttributes', 'attribute names');
  const excludedServices = names('excludedServices', 'service URL patterns');
  const unreadable = excludedServices?.find((pattern) => compileFullMatch(pattern) === null);
  if (unreadable !== undefined) throw fail('excludedServices', `holds ${JSON.stringify(unreadable)}, which is not a regular expression`);
  const written = json['order'] ?? 0;
  const order = javaInteger(written);
  if (order === undefined) throw fail('order', 'must be an integer');
  return {
    status,
    ...(excludedAttributes && { excludedAttributes }),
    ...(includeOnlyAttributes && { includeOnlyAttributes }),
    ...(excludedServices && { excludedServices }),
    ...(order !== 0 && { order }),
  };
}

/** `status` (case ignored), or from CAS 5's `enabled`: false asks nobody, true defers to the server's default. */
function consentStatus(json: Readonly<Record<string, unknown>>, fail: Fail): ConsentStatus {
  const status = json['status'] ?? undefined;
  if (status !== undefined) {
    const read = typeof status === 'string' ? CONSENT_STATUSES.find((each) => each === status.trim().toUpperCase()) : undefined;
    if (!read) throw fail('status', `must be one of ${CONSENT_STATUSES.join(', ')}`);
    return read;
  }
  const enabled = json['enabled'] ?? undefined;
  if (enabled !== undefined && typeof enabled !== 'boolean') throw fail('enabled', 'must be a boolean');
  return enabled === false ? 'FALSE' : 'UNDEFINED';
}

/** The policy as CAS writes it, only what is not at its default. */
export function renderConsentPolicy(policy: ConsentPolicy): Record<string, unknown> {
  return {
    '@class': DEFAULT_CONSENT_POLICY,
    ...(policy.status !== 'UNDEFINED' && { status: policy.status }),
    ...(policy.excludedAttributes && { excludedAttributes: javaSet(policy.excludedAttributes) }),
    ...(policy.includeOnlyAttributes && { includeOnlyAttributes: javaSet(policy.includeOnlyAttributes) }),
    ...(policy.excludedServices && { excludedServices: javaSet(policy.excludedServices) }),
    ...(policy.order !== undefined && { order: policy.order }),
  };
}
