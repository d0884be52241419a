import { MFA_FAILURE_MODES, type InvalidServiceDefinitionError, type MfaFailureMode, type MultifactorPolicy, type SecondFactorDeclaration } from '@tessera/core';
import { isClass, isRecord, type KeyRules } from './cas-service-keys.js';
import { stringList } from './java-collections.js';

const MULTIFACTOR_POLICY_CLASS = 'DefaultRegisteredServiceMultifactorPolicy';

/** The keys of DefaultRegisteredServiceMultifactorPolicy tessera reads; undefined for any other class (refused by the parser). */
export function multifactorPolicyKeys(type: unknown): KeyRules | undefined {
  if (type !== undefined && !isClass(type, MULTIFACTOR_POLICY_CLASS)) return undefined;
  return {
    read: [
      '@class',
      'multifactorAuthenticationProviders',
      'failureMode',
      'bypassEnabled',
      'principalAttributeNameTrigger',
      'principalAttributeValueToMatch',
      'bypassPrincipalAttributeName',
      'bypassPrincipalAttributeValue',
    ],
    unsupported: {
      forceExecution: { instead: 'a session that proved the factor is not asked it again', accepted: { when: (value) => value === false, as: 'false' } },
      script: { instead: 'the factor is asked as the policy’s own keys say; no script decides' },
      bypassIfMissingPrincipalAttribute: { instead: 'a user without bypassPrincipalAttributeName is asked the factor', accepted: { when: (value) => value === false, as: 'false' } },
    },
  };
}

type Fail = (field: string, problem: string) => InvalidServiceDefinitionError;

/**
 * `multifactorPolicy`, kept only when present. Its providers must be ones tessera has (`known`: those
 * the listed modules declare, on or off): a policy naming another would silently ask less than its
 * author meant. One whose module is off is read, and asked as a factor nobody has.
 */
export function parseMultifactorPolicy(value: unknown, known: readonly SecondFactorDeclaration[], fail: Fail): { multifactorPolicy?: MultifactorPolicy } {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) throw fail('(policy)', 'must be an object');
  if (value['@class'] !== undefined && !isClass(value['@class'], MULTIFACTOR_POLICY_CLASS)) throw fail('@class', `must be ${MULTIFACTOR_POLICY_CLASS} (org.apereo.cas.services)`);
  const providers = stringList(value['multifactorAuthenticationProviders'] ?? []);
  if (providers === undefined) throw fail('multifactorAuthenticationProviders', 'must be a list of provider ids');
  const unknown = providers.filter((provider) => !known.some(({ id }) => id === provider));
  if (unknown.length > 0) throw fail('multifactorAuthenticationProviders', `names ${unknown.join(', ')}, which tessera does not have; ${knownProviders(known)}`);
  const failureMode = value['failureMode'] ?? 'UNDEFINED';
  if (!MFA_FAILURE_MODES.includes(failureMode as MfaFailureMode)) throw fail('failureMode', `must be one of ${MFA_FAILURE_MODES.join(', ')}`);
  const flag = (key: string): boolean => {
    const found = value[key] ?? false;
    if (typeof found !== 'boolean') throw fail(key, 'must be a boolean');
    return found;
  };
  const text = (key: string): string | undefined => {
    const found = value[key] ?? undefined;
    if (found !== undefined && (typeof found !== 'string' || found.trim() === '')) throw fail(key, 'must be a non-empty string');
    return found;
  };
  const regex = (key: string): string | undefined => {
    const found = text(key);
    if (found !== undefined && !compiles(found)) throw fail(key, 'is not a valid regular expression');
    return found;
  };
  const trigger = text('principalAttributeNameTrigger');
  const toMatch = regex('principalAttributeValueToMatch');
  if (toMatch !== undefined && trigger === undefined) throw fail('principalAttributeValueToMatch', 'needs principalAttributeNameTrigger, the attribute it is matched against');
  const bypassName = text('bypassPrincipalAttributeName');
  const bypassValue = regex('bypassPrincipalAttributeValue');
  if (bypassValue !== undefined && bypassName === undefined) throw fail('bypassPrincipalAttributeValue', 'needs bypassPrincipalAttributeName, the attribute it is matched against');
  return {
    multifactorPolicy: {
      providers,
      failureMode: failureMode as MfaFailureMode,
      bypassEnabled: flag('bypassEnabled'),
      ...(trigger !== undefined && { principalAttributeNameTrigger: trigger }),
      ...(toMatch !== undefined && { principalAttributeValueToMatch: toMatch }),
      ...(bypassName !== undefined && { bypassPrincipalAttributeName: bypassName }),
      ...(bypassValue !== undefined && { bypassPrincipalAttributeValue: bypassValue }),
    },
  };
}

/** The policy as CAS writes it: its providers in a LinkedHashSet, the optional keys only when set. */
export function multifactorPolicyJson(policy: MultifactorPolicy): Record<string, unknown> {
  return {
    '@class': `org.apereo.cas.services.${MULTIFACTOR_POLICY_CLASS}`,
    multifactorAuthenticationProviders: ['java.util.LinkedHashSet', [...policy.providers]],
    failureMode: policy.failureMode,
    bypassEnabled: policy.bypassEnabled,
    ...(policy.principalAttributeNameTrigger !== undefined && { principalAttributeNameTrigger: policy.principalAttributeNameTrigger }),
    ...(policy.principalAttributeValueToMatch !== undefined && { principalAttributeValueToMatch: policy.principalAttributeValueToMatch }),
    ...(policy.bypassPrincipalAttributeName !== undefined && { bypassPrincipalAttributeName: policy.bypassPrincipalAttributeName }),
    ...(policy.bypassPrincipalAttributeValue !== undefined && { bypassPrincipalAttributeValue: policy.bypassPrincipalAttributeValue }),
  };
}

/** The providers tessera has, for a refusal: each id with what the user gives. */
function knownProviders(known: readonly SecondFactorDeclaration[]): string {
  const shown = known.map(({ id, description }) => `${id} (${description})`);
  if (shown.length === 0) return 'it has no second-factor provider';
  return shown.length === 1 ? `its one provider is ${shown[0]}` : `its providers are ${shown.join(', ')}`;
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}
