import {
  CAS_REGISTERED_SERVICE,
  OIDC_CLIENT_AUTH_METHODS,
  OIDC_REGISTERED_SERVICE,
  type OidcClientAuthMethod,
  type OidcClientDefinition,
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
import { ACCESS_STRATEGY_KEYS, isClass, isRecord, keyProblems, PROPERTY_KEYS, proxyPolicyKeys, serviceKeys } from './cas-service-keys.js';
import { stringList } from './java-collections.js';
import type { PolicySlots } from './policy-slots.js';

export const DEFAULT_SERVICE_TYPES: readonly string[] = [
  CAS_REGISTERED_SERVICE,
  'org.apereo.cas.services.RegexRegisteredService',
  'org.jasig.cas.services.RegexRegisteredService',
  OIDC_REGISTERED_SERVICE,
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
    ...(type === OIDC_REGISTERED_SERVICE && { oidc: parseOidcClient(json, fail) }),
  };
}

const OIDC_GRANT_TYPES = ['authorization_code', 'refresh_token', 'implicit'];
const OIDC_RESPONSE_TYPES = ['code', 'id_token', 'id_token token', 'code id_token', 'code token', 'code id_token token', 'none'];
const OIDC_SIGNING_ALGORITHMS = ['RS256', 'PS256', 'ES256'];

/**
 * The client of an OidcRegisteredService. Apereo's defaults: the code flow with refresh tokens, the
 * `openid` scope, `client_secret_basic` with a secret and `none` (a public client, PKCE required) without.
 */
function parseOidcClient(json: Readonly<Record<string, unknown>>, fail: Fail): OidcClientDefinition {
  const clientId = json['clientId'];
  if (typeof clientId !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(clientId)) throw fail('clientId', 'is required: up to 255 printable ASCII characters, no spaces');
  const clientSecret = json['clientSecret'] ?? undefined;
  if (clientSecret !== undefined && (typeof clientSecret !== 'string' || clientSecret.length < 16)) throw fail('clientSecret', 'must be a string of at least 16 characters');
  const method = json['tokenEndpointAuthenticationMethod'] ?? (clientSecret === undefined ? 'none' : 'client_secret_basic');
  if (typeof method !== 'string' || !OIDC_CLIENT_AUTH_METHODS.includes(method as OidcClientAuthMethod)) {
    throw fail('tokenEndpointAuthenticationMethod', `must be one of ${OIDC_CLIENT_AUTH_METHODS.join(', ')}`);
  }
  const tokenEndpointAuthenticationMethod = method as OidcClientAuthMethod;
  const usesSecret = tokenEndpointAuthenticationMethod === 'client_secret_basic' || tokenEndpointAuthenticationMethod === 'client_secret_post';
  if (usesSecret && clientSecret === undefined) throw fail('clientSecret', `is required with ${tokenEndpointAuthenticationMethod}`);
  if (!usesSecret && clientSecret !== undefined) throw fail('clientSecret', `is not used with ${tokenEndpointAuthenticationMethod}: remove it`);
  const list = (key: string, fallback: readonly string[], allowed?: readonly string[]): string[] => {
    const value = json[key];
    if (value === undefined || value === null) return [...fallback];
    const items = stringList(value);
    if (!items || items.length === 0) throw fail(key, 'must be a non-empty list of strings');
    const unknown = allowed === undefined ? undefined : items.find((item) => !allowed.includes(item));
    if (unknown !== undefined) throw fail(key, `holds ${JSON.stringify(unknown)}; known: ${allowed?.join(', ')}`);
    return [...new Set(items)];
  };
  const scopes = list('scopes', ['openid']);
  if (!scopes.includes('openid')) throw fail('scopes', 'must include openid');
  const jwks = json['jwks'] ?? undefined;
  if (jwks !== undefined && typeof jwks !== 'string') throw fail('jwks', 'must be a JWKS as JSON text or an https URL');
  if (typeof jwks === 'string' && !isJwks(jwks) && !jwks.startsWith('https://')) throw fail('jwks', 'must be a JWKS as JSON text or an https URL');
  if (tokenEndpointAuthenticationMethod === 'private_key_jwt' && jwks === undefined) throw fail('jwks', 'is required with private_key_jwt');
  const idTokenSigningAlg = json['idTokenSigningAlg'] ?? undefined;
  if (idTokenSigningAlg !== undefined && (typeof idTokenSigningAlg !== 'string' || !OIDC_SIGNING_ALGORITHMS.includes(idTokenSigningAlg))) {
    throw fail('idTokenSigningAlg', `must be one of ${OIDC_SIGNING_ALGORITHMS.join(', ')}`);
  }
  return {
    clientId,
    ...(clientSecret !== undefined && { clientSecret }),
    tokenEndpointAuthenticationMethod,
    scopes,
    supportedGrantTypes: list('supportedGrantTypes', ['authorization_code', 'refresh_token'], OIDC_GRANT_TYPES),
    supportedResponseTypes: list('supportedResponseTypes', ['code'], OIDC_RESPONSE_TYPES),
    bypassApprovalPrompt: optionalBoolean(json['bypassApprovalPrompt'], false, () => fail('bypassApprovalPrompt', 'must be a boolean')),
    ...(jwks !== undefined && { jwks }),
    ...(idTokenSigningAlg !== undefined && { idTokenSigningAlg }),
  };
}

function isJwks(text: string): boolean {
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) && Array.isArray(parsed['keys']);
  } catch {
    return false;
  }
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
    if (type === 'FRONT_CHANNEL') throw fail('logoutType', 'FRONT_CHANNEL is not supported; use BACK_CHANNEL or NONE');
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
  return keyProblems(json, serviceKeys(json['@class']), '', (key, value, field) => {
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

