import {
  compileFullMatch,
  MAPPED_REGEX_ATTRIBUTE_FILTER,
  REGEX_ATTRIBUTE_FILTER,
  type AttributeFilter,
  type InvalidServiceDefinitionError,
  type ReleaseSettings,
  type ServiceDefinitionProblem,
} from '@tessera/core';
import { isClass, isRecord, keyProblems, type KeyRules } from './cas-service-keys.js';

type Fail = (field: string, problem: string) => InvalidServiceDefinitionError;

/** The keys of every Apereo release policy (its base class's) that tessera reads, for release policies' codec parts to share. */
export const RELEASE_SETTINGS_KEYS = ['authorizedToReleaseAuthenticationAttributes', 'attributeFilter'] as const;

const FILTER_CLASSES = 'RegisteredServiceRegexAttributeFilter or RegisteredServiceMappedRegexAttributeFilter (org.apereo.cas.services.support)';
// `order` sorts the filters of a chain of filters, which tessera does not read: one filter has nothing to be sorted against.
const FILTER_KEYS: Readonly<Record<string, KeyRules>> = {
  [REGEX_ATTRIBUTE_FILTER]: { read: ['@class', 'pattern'], descriptive: ['order'] },
  [MAPPED_REGEX_ATTRIBUTE_FILTER]: { read: ['@class', 'patterns', 'excludeUnmappedAttributes', 'caseInsensitive', 'completeMatch'], descriptive: ['order'] },
};

/** Problems with the keys of an `attributeFilter` of a class tessera reads; its class is checked by parseReleaseSettings. */
export function releaseSettingsKeyProblems(key: string, value: unknown, field: string): ServiceDefinitionProblem[] {
  if (key !== 'attributeFilter' || !isRecord(value)) return [];
  const type = filterType(value['@class']);
  return type ? keyProblems(value, FILTER_KEYS[type] ?? { read: [] }, `${field}.`) : [];
}

/** The base class's settings a policy's JSON holds, only those not at their default. */
export function parseReleaseSettings(json: Readonly<Record<string, unknown>>, fail: Fail): Omit<ReleaseSettings, 'type'> {
  const authentication = json['authorizedToReleaseAuthenticationAttributes'] ?? true;
  if (typeof authentication !== 'boolean') throw fail('authorizedToReleaseAuthenticationAttributes', 'must be a boolean');
  const filter = json['attributeFilter'];
  return {
    ...(authentication === false && { authorizedToReleaseAuthenticationAttributes: false }),
    ...(filter !== undefined && filter !== null && { attributeFilter: parseFilter(filter, (field, problem) => fail(`attributeFilter.${field}`, problem)) }),
  };
}

/** The base class's settings as CAS writes them, only those not at their default. */
export function renderReleaseSettings(policy: ReleaseSettings): Record<string, unknown> {
  return {
    ...(policy.authorizedToReleaseAuthenticationAttributes === false && { authorizedToReleaseAuthenticationAttributes: false }),
    ...(policy.attributeFilter && { attributeFilter: renderFilter(policy.attributeFilter) }),
  };
}

function filterType(written: unknown): AttributeFilter['type'] | undefined {
  if (isClass(written, 'RegisteredServiceRegexAttributeFilter')) return REGEX_ATTRIBUTE_FILTER;
  if (isClass(written, 'RegisteredServiceMappedRegexAttributeFilter')) return MAPPED_REGEX_ATTRIBUTE_FILTER;
  return undefined;
}

function parseFilter(json: unknown, fail: Fail): AttributeFilter {
  if (!isRecord(json)) throw fail('(filter)', 'must be an object');
  const type = filterType(json['@class']);
  if (!type) throw fail('@class', `must be ${FILTER_CLASSES}`);
  if (type === REGEX_ATTRIBUTE_FILTER) {
    const pattern = json['pattern'];
    if (typeof pattern !== 'string' || compileFullMatch(pattern) === null) throw fail('pattern', 'is required (a regular expression)');
    return { type, pattern };
  }
  const patterns = json['patterns'];
  if (!isRecord(patterns)) throw fail('patterns', 'must map attribute names to regular expressions');
  const mapped: Record<string, string> = {};
  for (const [name, pattern] of Object.entries(patterns)) {
    if (name === '@class') continue;
    if (typeof pattern !== 'string' || !validRegex(pattern)) throw fail(`patterns.${name}`, 'must be a regular expression');
    mapped[name] = pattern;
  }
  const flag = (key: string, fallback: boolean): boolean => {
    const value = json[key] ?? fallback;
    if (typeof value !== 'boolean') throw fail(key, 'must be a boolean');
    return value;
  };
  return {
    type,
    patterns: mapped,
    excludeUnmappedAttributes: flag('excludeUnmappedAttributes', false),
    caseInsensitive: flag('caseInsensitive', true),
    completeMatch: flag('completeMatch', false),
  };
}

function renderFilter(filter: AttributeFilter): Record<string, unknown> {
  if (filter.type === REGEX_ATTRIBUTE_FILTER) return { '@class': filter.type, pattern: filter.pattern };
  return {
    '@class': filter.type,
    patterns: { '@class': 'java.util.HashMap', ...filter.patterns },
    ...(filter.excludeUnmappedAttributes && { excludeUnmappedAttributes: true }),
    ...(!filter.caseInsensitive && { caseInsensitive: false }),
    ...(filter.completeMatch && { completeMatch: true }),
  };
}

function validRegex(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}
