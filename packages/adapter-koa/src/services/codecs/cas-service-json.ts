import {
  CAS_REGISTERED_SERVICE,
  compileFullMatch,
  InvalidServiceDefinitionError,
  LOGOUT_TYPES,
  type AccessStrategy,
  type AttributeMap,
  type LogoutType,
  type ProxyPolicy,
  type ServiceDefinition,
  type ServiceDefinitionProblem,
  type ServicePolicy,
} from '@tessera/core';
import { ACCESS_STRATEGY_KEYS, isClass, isRecord, keyProblems, PROPERTY_KEYS, proxyPolicyKeys, SERVICE_KEYS } from './cas-service-keys.js';
import { stringList } from './java-collections.js';
import type { PolicySlots } from './policy-slots.js';

export const DEFAULT_SERVICE_TYPES: readonly string[] = [
  CAS_REGISTERED_SERVICE,
  'org.apereo.cas.services.RegexRegisteredService',
  'org.jasig.cas.services.RegexRegisteredService',
];

export interface ParseOptions {
  /** `@class` values accepted at the top level. */
  readonly acceptedTypes?: readonly string[];
  /** Prefix for field names in error messages, e.g. `services[2]`. */
  readonly path?: string;
}

/**
 * Reads a service definition in Apereo CAS's JSON format, unchanged: `@class` keys, Java collections
 * written as `["java.util.HashSet", [values]]`; plain arrays and objects too. Errors name the field.
 * Keys fail closed (cas-service-keys.ts): every unknown or unsupported key is refused, all at once.
 * Its policies are read by the codec parts of their classes (`policies`).
 */
export function parseServiceDefinition(json: unknown, policies: PolicySlots, options: ParseOptions = {}): ServiceDefinition {
  const at = (field: string) => (options.path ? `${options.path}.${field}` : field);
  const fail = (field: string, problem: string) => new InvalidServiceDefinitionError(at(field), problem);
  if (!isRecord(json)) throw fail('(definition)', 'must be a JSON object');

  const type = json['@class'] ?? CAS_REGISTERED_SERVICE;
  const accepted = options.acceptedTypes ?? DEFAULT_SERVICE_TYPES;
  if (typeof type !== 'string' || !accepted.includes(type)) {
    throw fail('@class', `must be one of ${accepted.join(', ')}`);
  }
  const [first, ...more] = definitionKeyProblems(json, policies).map(({ field, problem }) => ({ field: at(field), problem }));
  if (first) throw new InvalidServiceDefinitionError(first.field, first.problem, ...more);

  const serviceId = json['serviceId'];
  if (typeof serviceId !== 'string' || serviceId.trim() === '') throw fail('serviceId', 'is required (a regular expression)');
  if (compileFullMatch(serviceId) === null) throw fail('serviceId', 'is not a valid regular expression');

  const name = json['name'];
  if (typeof name !== 'string' || name.trim() === '') throw fail('name', 'is required');
  if (name.length > 255) throw fail('name', 'must be at most 255 characters');

  const description = json['description'];
  if (description !== undefined && description !== null && typeof description !== 'string') {
    throw fail('description', 'must be a string');
  }
  if (typeof description === 'string' && description.length > 255) throw fail('description', 'must be at most 255 characters');

  const id = json['id'];
  if (id !== undefined && (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0)) {
    throw fail('id', 'must be a non-negative integer');
  }
  const evaluationOrder = json['evaluationOrder'] ?? 0;
  if (typeof evaluationOrder !== 'number' || !Number.isSafeInteger(evaluationOrder)) {
    throw fail('evaluationOrder', 'must be an integer');
  }

  return {
    ...(id === undefined ? {} : { id }),
    type,
    name,
    serviceId,
    ...(typeof description === 'string' ? { description } : {}),
    evaluationOrder,
    accessStrategy: parseAccessStrategy(json['accessStrategy'], (field, problem) => fail(`accessStrategy.${field}`, problem)),
    attributeRelease: policies.parseReleasePolicy(json['attributeReleasePolicy'], (field, problem) => fail(`attributeReleasePolicy.${field}`, problem)),
    ...parseUsernameProvider(policies, json['usernameAttributeProvider'], (field, problem) => fail(`usernameAttributeProvider.${field}`, problem)),
    properties: parseProperties(json['properties'], (field, problem) => fail(`properties.${field}`, problem)),
    ...parseLogout(json['logoutType'], json['logoutUrl'], fail),
    ...parseProxyPolicy(json['proxyPolicy'], (field, problem) => fail(`proxyPolicy.${field}`, problem)),
  };
}

/** `usernameAttributeProvider`, kept only when the service has a provider of its own. */
function parseUsernameProvider(policies: PolicySlots, value: unknown, fail: Fail): { usernameProvider?: ServicePolicy } {
  const usernameProvider = policies.parseUsernameProvider(value, fail);
  return usernameProvider ? { usernameProvider } : {};
}

const PROXY_POLICY_CLASSES = 'RefuseRegisteredServiceProxyPolicy or RegexMatchingRegisteredServiceProxyPolicy';

/**
 * `proxyPolicy`, kept only when present so a definition round-trips as written. A class tessera does
 * not read is refused rather than taken for a refusal: its author meant the service to proxy.
 */
function parseProxyPolicy(value: unknown, fail: Fail): { proxyPolicy?: ProxyPolicy } {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) throw fail('(policy)', 'must be an object');
  const type = value['@class'];
  if (isClass(type, 'RefuseRegisteredServiceProxyPolicy')) return { proxyPolicy: { kind: 'refuse' } };
  if (!isClass(type, 'RegexMatchingRegisteredServiceProxyPolicy')) throw fail('@class', `must be ${PROXY_POLICY_CLASSES} (org.apereo.cas.services)`);
  const useServiceId = optionalBoolean(value['useServiceId'], false, () => fail('useServiceId', 'must be a boolean'));
  const exactMatch = optionalBoolean(value['exactMatch'], false, () => fail('exactMatch', 'must be a boolean'));
  const pattern = value['pattern'] ?? undefined;
  if (pattern !== undefined && typeof pattern !== 'string') throw fail('pattern', 'must be a string');
  if (!useServiceId) {
    if (pattern === undefined || pattern.trim() === '') throw fail('pattern', 'is required (a regular expression the pgtUrl must match), unless useServiceId is true');
    if (!exactMatch && compileFullMatch(pattern) === null) throw fail('pattern', 'is not a valid regular expression');
  }
  return { proxyPolicy: { kind: 'regex', ...(pattern !== undefined && { pattern }), useServiceId, exactMatch } };
}

/** `logoutType` and `logoutUrl`, kept only when present so a definition round-trips as written. */
function parseLogout(type: unknown, url: unknown, fail: Fail): { logoutType?: LogoutType; logoutUrl?: string } {
  const parsed: { logoutType?: LogoutType; logoutUrl?: string } = {};
  if (type !== undefined && type !== null) {
    if (!LOGOUT_TYPES.includes(type as LogoutType)) throw fail('logoutType', `must be one of ${LOGOUT_TYPES.join(', ')}`);
    parsed.logoutType = type as LogoutType;
  }
  if (url !== undefined && url !== null) {
    if (typeof url !== 'string' || !isHttpUrl(url)) throw fail('logoutUrl', 'must be an absolute http or https URL');
    parsed.logoutUrl = url;
  }
  return parsed;
}

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

type Fail = (field: string, problem: string) => InvalidServiceDefinitionError;

/**
 * Every key of the definition that is unknown or not supported, at every level, in the order written.
 * Objects of a class tessera does not read are left to the parser, which refuses the class itself.
 */
function definitionKeyProblems(json: Readonly<Record<string, unknown>>, policies: PolicySlots): ServiceDefinitionProblem[] {
  return keyProblems(json, SERVICE_KEYS, '', (key, value, field) => {
    if (key === 'usernameAttributeProvider') return policies.usernameProviderKeyProblems(value, field);
    if (!isRecord(value)) return [];
    const within = `${field}.`;
    if (key === 'accessStrategy') {
      const readable = value['@class'] === undefined || isClass(value['@class'], 'DefaultRegisteredServiceAccessStrategy');
      return readable ? keyProblems(value, ACCESS_STRATEGY_KEYS, within) : [];
    }
    if (key === 'attributeReleasePolicy') return policies.releasePolicyKeyProblems(value, field);
    if (key === 'proxyPolicy') {
      const rules = proxyPolicyKeys(value['@class']);
      return rules ? keyProblems(value, rules, within) : [];
    }
    if (key === 'properties') {
      return Object.entries(value).flatMap(([name, property]) => (isRecord(property) ? keyProblems(property, PROPERTY_KEYS, `${within}${name}.`) : []));
    }
    return [];
  });
}

function parseAccessStrategy(value: unknown, fail: Fail): AccessStrategy {
  if (value === undefined || value === null) return { enabled: true, ssoEnabled: true, requiredAttributes: {} };
  if (!isRecord(value)) throw fail('(strategy)', 'must be an object');
  const type = value['@class'];
  if (type !== undefined && !isClass(type, 'DefaultRegisteredServiceAccessStrategy')) {
    throw fail('@class', 'only DefaultRegisteredServiceAccessStrategy is supported');
  }
  return {
    enabled: optionalBoolean(value['enabled'], true, () => fail('enabled', 'must be a boolean')),
    ssoEnabled: optionalBoolean(value['ssoEnabled'], true, () => fail('ssoEnabled', 'must be a boolean')),
    requiredAttributes: parseAttributeMap(value['requiredAttributes'], (name) => fail(`requiredAttributes.${name}`, 'must be a list of strings')),
  };
}

function parseProperties(value: unknown, fail: Fail): AttributeMap {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) throw fail('(properties)', 'must be an object');
  const properties: Record<string, readonly string[]> = {};
  for (const [name, property] of Object.entries(value)) {
    if (name === '@class') continue;
    const values = stringList(isRecord(property) ? property['values'] : property);
    if (!values) throw fail(name, 'must hold a list of string values');
    properties[name] = values;
  }
  return properties;
}

function parseAttributeMap(value: unknown, fail: (name: string) => InvalidServiceDefinitionError): AttributeMap {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) throw fail('(map)');
  const map: Record<string, readonly string[]> = {};
  for (const [name, values] of Object.entries(value)) {
    if (name === '@class') continue;
    const list = typeof values === 'string' ? [values] : stringList(values);
    if (!list) throw fail(name);
    map[name] = list;
  }
  return map;
}

function optionalBoolean(value: unknown, fallback: boolean, fail: () => Error): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw fail();
  return value;
}

