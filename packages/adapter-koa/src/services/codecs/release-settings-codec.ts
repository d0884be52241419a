import type { InvalidServiceDefinitionError, ReleaseSettings, ServiceDefinitionProblem } from '@tessera/core';
import { attributeFilterKeyProblems, parseAttributeFilter, renderAttributeFilter } from './attribute-filter-codec.js';
import { consentPolicyKeyProblems, parseConsentPolicy, renderConsentPolicy } from './consent-policy-codec.js';
import { parsePrincipalAttributesRepository, principalAttributesRepositoryKeyProblems, renderPrincipalAttributesRepository } from './principal-attributes-repository-codec.js';

type Fail = (field: string, problem: string) => InvalidServiceDefinitionError;

/** The keys of every Apereo release policy (its base class's) that tessera reads, for release policies' codec parts to share. */
export const RELEASE_SETTINGS_KEYS = ['authorizedToReleaseAuthenticationAttributes', 'attributeFilter', 'principalAttributesRepository', 'consentPolicy'] as const;

/** Problems with the keys of an `attributeFilter`, a `principalAttributesRepository` or a `consentPolicy` of a class tessera reads; their class is checked by parseReleaseSettings. */
export function releaseSettingsKeyProblems(key: string, value: unknown, field: string): ServiceDefinitionProblem[] {
  if (key === 'attributeFilter') return attributeFilterKeyProblems(value, field);
  if (key === 'principalAttributesRepository') return principalAttributesRepositoryKeyProblems(value, field);
  if (key === 'consentPolicy') return consentPolicyKeyProblems(value, field);
  return [];
}

/** The base class's settings a policy's JSON holds, only those not at their default. */
export function parseReleaseSettings(json: Readonly<Record<string, unknown>>, fail: Fail): Omit<ReleaseSettings, 'type'> {
  const authentication = json['authorizedToReleaseAuthenticationAttributes'] ?? true;
  if (typeof authentication !== 'boolean') throw fail('authorizedToReleaseAuthenticationAttributes', 'must be a boolean');
  const filter = json['attributeFilter'];
  const repository = parsePrincipalAttributesRepository(json['principalAttributesRepository'], (field, problem) => fail(`principalAttributesRepository.${field}`, problem));
  const consentPolicy = parseConsentPolicy(json['consentPolicy'], (field, problem) => fail(`consentPolicy.${field}`, problem));
  return {
    ...(authentication === false && { authorizedToReleaseAuthenticationAttributes: false }),
    ...(filter !== undefined && filter !== null && { attributeFilter: parseAttributeFilter(filter, (field, problem) => fail(`attributeFilter.${field}`, problem)) }),
    ...(repository && { principalAttributesRepository: repository }),
    ...(consentPolicy && { consentPolicy }),
  };
}

/** The base class's settings as CAS writes them, only those not at their default. */
export function renderReleaseSettings(policy: ReleaseSettings): Record<string, unknown> {
  return {
    ...(policy.authorizedToReleaseAuthenticationAttributes === false && { authorizedToReleaseAuthenticationAttributes: false }),
    ...(policy.attributeFilter && { attributeFilter: renderAttributeFilter(policy.attributeFilter) }),
    ...(policy.principalAttributesRepository && { principalAttributesRepository: renderPrincipalAttributesRepository(policy.principalAttributesRepository) }),
    ...(policy.consentPolicy && { consentPolicy: renderConsentPolicy(policy.consentPolicy) }),
  };
}
