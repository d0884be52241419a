import {
  CAS_REGISTERED_SERVICE,
  compileFullMatch,
  expirationInstant,
  InvalidServiceDefinitionError,
  LOGOUT_TYPES,
  type ExpirationPolicy,
  type AccessStrategy,
  type AttributeMap,
  type LogoutType,
  type ProxyPolicy,
  type ServiceDefinition,
  type ServiceDefinitionProblem,
  type ServicePolicy,
} from '@tessera/core';
import { CAS_SERVICE_CLASSES, EXPIRATION_POLICY_KEYS, isClass, isRecord, keyProblems, PRESENTATION_KEYS, PROPERTY_KEYS, proxyPolicyKeys, TICKET_EXPIRATION_KEYS } from './cas-service-keys.js';
import { accessStrategyKeys, parseAccessStrategy } from './access-strategy-codec.js';
import { javaInteger, stringList } from './java-collections.js';
import { multifactorPolicyKeys, parseMultifactorPolicy } from './multifactor-policy-codec.js';
import { isHttpUrl, optionalBoolean, partReader, throwAll } from './parse-parts.js';
import { parseSupportedProtocols } from './supported-protocols-codec.js';
import type { PolicySlots } from './policy-slots.js';
import { parseSingleSignOnParticipation, singleSignOnParticipationKeyProblems } from './sso-participation-codec.js';
import type { ServiceTemplates } from './service-templates.js';
import { isTicketExpirationKey, parseTicketExpiration, ticketExpirationKeyProblems } from './ticket-expiration-codec.js';

/** The classes a definition may have unless told otherwise: CAS's own services, and every class a listed module brings. */
export function defaultServiceClasses(policies: PolicySlots): string[] {
  return [...CAS_SERVICE_CLASSES, ...policies.modules.classes];
}

export interface ParseOptions {
  /** `@class` values accepted at the top level; by default CAS's own and every module's (defaultServiceClasses). */
  readonly acceptedTypes?: readonly string[];
  /** Prefix for field names in error messages, e.g. `services[2]`. */
  readonly path?: string;
  /** The service templates a definition may name in `templateName` (service-templates.ts); without them, naming one is refused. */
  readonly templates?: ServiceTemplates;
}

/** The problem of a `templateName` read where no templates are given. */
const NO_TEMPLATES_GIVEN = 'names service templates, and none are given: set serviceTemplatesDirectory (tessera services: --templates DIR)';

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
  const accepted = options.acceptedTypes ?? defaultServiceClasses(policies);
  if (typeof type !== 'string' || !accepted.includes(type)) {
    throw fail('@class', (typeof type === 'string' ? policies.modules.refusedClass(type) : undefined) ?? `must be one of ${accepted.join(', ')}`);
  }
  // Fields as the definition names them; the path of the definition goes before each at the end.
  const invalid: Fail = (field, problem) => new InvalidServiceDefinitionError(field, problem);
  const problems = definitionKeyProblems(json, policies);
  const section = sectionReader(problems);

  const serviceId = section('serviceId', () => {
    const value = json['serviceId'];
    if (typeof value !== 'string' || value.trim() === '') throw invalid('serviceId', 'is required (a regular expression)');
    if (compileFullMatch(value) === null) throw invalid('serviceId', 'is not a valid regular expression');
    return value;
  });
  const name = section('name', () => {
    const value = json['name'] ?? '';
    // Only shown to people: CAS loads a definition without one, and so does tessera, with a warning.
    if (typeof value !== 'string') throw invalid('name', 'must be a string');
    if (value.length > 255) throw invalid('name', 'must be at most 255 characters');
    return value;
  });
  const description = section('description', () => {
    const value = json['description'];
    if (value !== undefined && value !== null && typeof value !== 'string') throw invalid('description', 'must be a string');
    if (typeof value === 'string' && value.length > 255) throw invalid('description', 'must be at most 255 characters');
    return typeof value === 'string' ? value : undefined;
  });
  const presentation = PRESENTATION_KEYS.map((key) =>
    section(key, () => {
      const value = json[key];
      if (value === undefined || value === null) return {};
      if (typeof value !== 'string') throw invalid(key, 'must be a string');
      if (value.length > 2048) throw invalid(key, 'must be at most 2048 characters');
      return value.trim() === '' ? {} : { [key]: value };
    }),
  );
  const id = section('id', () => {
    const value = json['id'];
    if (value !== undefined && (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)) throw invalid('id', 'must be a non-negative integer');
    return value;
  });
  const evaluationOrder = section('evaluationOrder', () => javaIntegerOr(json['evaluationOrder'] ?? 0, () => invalid('evaluationOrder', 'must be an integer')));
  const accessStrategy = section('accessStrategy', () => parseAccessStrategy(json['accessStrategy'], (field, problem) => invalid(`accessStrategy.${field}`, problem)));
  const attributeRelease = section('attributeReleasePolicy', () =>
    policies.parseReleasePolicy(json['attributeReleasePolicy'], (field, problem) => invalid(`attributeReleasePolicy.${field}`, problem)),
  );
  const usernameProvider = section('usernameAttributeProvider', () =>
    parseUsernameProvider(policies, json['usernameAttributeProvider'], (field, problem) => invalid(`usernameAttributeProvider.${field}`, problem)),
  );
  const properties = section('properties', () => parseProperties(json['properties'], (field, problem) => invalid(`properties.${field}`, problem)));
  const logout = section('logoutType', () => parseLogout(json['logoutType'], json['logoutUrl'], invalid));
  const proxyPolicy = section('proxyPolicy', () => parseProxyPolicy(json['proxyPolicy'], (field, problem) => invalid(`proxyPolicy.${field}`, problem)));
  const moduleData = policies.modules.parse(json, type, invalid, section);
  const expirationPolicy = section('expirationPolicy', () => parseExpirationPolicy(json['expirationPolicy'], (field, problem) => invalid(`expirationPolicy.${field}`, problem)));
  const multifactorPolicy = section('multifactorPolicy', () => parseMultifactorPolicy(json['multifactorPolicy'], policies.secondFactors, (field, problem) => invalid(`multifactorPolicy.${field}`, problem)));
  const singleSignOnParticipation = section('singleSignOnParticipationPolicy', () =>
    parseSingleSignOnParticipation(json['singleSignOnParticipationPolicy'], (field, problem) => invalid(`singleSignOnParticipationPolicy.${field}`, problem)),
  );
  const supportedProtocols = section('supportedProtocols', () => parseSupportedProtocols(json['supportedProtocols'], policies.modules.protocols, invalid));
  const ticketExpiration = TICKET_EXPIRATION_KEYS.map((key) => section(key, () => parseTicketExpiration(key, json[key], (field, problem) => invalid(`${key}.${field}`, problem))));
  // Templates are merged before a definition is read (parseWithTemplates); one still naming them here has none to take.
  section('templateName', () => {
    if (json['templateName'] !== undefined && json['templateName'] !== null) throw invalid('templateName', NO_TEMPLATES_GIVEN);
  });

  throwAll(problems.map(({ field, problem }) => ({ field: at(field), problem })));
  return {
    ...(id === undefined ? {} : { id: id }),
    type,
    name: name as string,
    serviceId: serviceId as string,
    ...(description === undefined ? {} : { description }),
    ...presentation.reduce((fields, each) => ({ ...fields, ...each }), {}),
    evaluationOrder: evaluationOrder as number,
    accessStrategy: accessStrategy as AccessStrategy,
    attributeRelease: attributeRelease as ServicePolicy,
    ...usernameProvider,
    properties: properties as AttributeMap,
    ...logout,
    ...proxyPolicy,
    ...expirationPolicy,
    ...multifactorPolicy,
    ...(singleSignOnParticipation && { singleSignOnParticipation }),
    ...supportedProtocols,
    ...ticketExpiration.reduce((fields, each) => ({ ...fields, ...each }), {}),
    ...moduleData,
  };
}

const EXPIRATION_CLASS = 'DefaultRegisteredServiceExpirationPolicy';

/**
 * `expirationPolicy`, kept only when it has a date (without one the service never expires, as in
 * CAS). The date is a date or a date and time (UTC unless it names an offset); the flags are kept as
 * written, for the definition to round-trip.
 */
function parseExpirationPolicy(value: unknown, fail: Fail): { expirationPolicy?: ExpirationPolicy } {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) throw fail('(policy)', 'must be an object');
  if (value['@class'] !== undefined && !isClass(value['@class'], EXPIRATION_CLASS)) throw fail('@class', `must be ${EXPIRATION_CLASS} (org.apereo.cas.services)`);
  const flag = (key: string) => optionalBoolean(value[key], false, () => fail(key, 'must be a boolean'));
  const flags = { deleteWhenExpired: flag('deleteWhenExpired'), notifyWhenDeleted: flag('notifyWhenDeleted'), notifyWhenExpired: flag('notifyWhenExpired') };
  const expirationDate = value['expirationDate'] ?? '';
  if (typeof expirationDate !== 'string') throw fail('expirationDate', 'must be a date (2030-12-31) or a date and time (2030-12-31T18:00:00Z)');
  if (expirationDate.trim() === '') return {};
  if (Number.isNaN(expirationInstant(expirationDate))) throw fail('expirationDate', 'must be a date (2030-12-31) or a date and time (2030-12-31T18:00:00Z)');
  return { expirationPolicy: { expirationDate, ...flags } };
}

/**
 * Reads each part of a definition on its own, so that one run names every problem of a file: the
 * problems of a part land in `problems` (already holding the keys' problems), and a part whose keys
 * are at fault is not read at all (its key problem says it already). Its value is undefined then, and
 * the definition is refused.
 */
function sectionReader(problems: ServiceDefinitionProblem[]) {
  const part = partReader(problems);
  return <T>(keys: string | readonly string[], read: () => T): T | undefined =>
    [keys].flat().some((key) => problems.some(({ field }) => field === key || field.startsWith(`${key}.`))) ? undefined : part(read);
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

type Fail = (field: string, problem: string) => InvalidServiceDefinitionError;

/**
 * Every key of the definition that is unknown or not supported, at every level, in the order written.
 * Objects of a class tessera does not read are left to the parser, which refuses the class itself.
 */
function definitionKeyProblems(json: Readonly<Record<string, unknown>>, policies: PolicySlots): ServiceDefinitionProblem[] {
  return keyProblems(json, policies.modules.keysOf(json['@class']), '', (key, value, field) => {
    const modules = policies.modules.keyProblemsInside(json['@class'], key, value, field);
    if (modules !== undefined) return modules;
    if (key === 'usernameAttributeProvider') return policies.usernameProviderKeyProblems(value, field);
    if (!isRecord(value)) return [];
    const within = `${field}.`;
    if (key === 'accessStrategy') {
      const rules = accessStrategyKeys(value['@class']);
      if (rules === undefined) return [];
      return keyProblems(value, policies.modules.accessStrategyRules(rules), within, (inner, innerValue, innerField) => policies.modules.accessStrategyKeyProblemsInside(inner, innerValue, innerField) ?? []);
    }
    if (key === 'attributeReleasePolicy') return policies.releasePolicyKeyProblems(value, field);
    if (key === 'singleSignOnParticipationPolicy') return singleSignOnParticipationKeyProblems(value, field);
    if (isTicketExpirationKey(key)) return ticketExpirationKeyProblems(key, value, field);
    if (key === 'expirationPolicy') return isClass(value['@class'] ?? EXPIRATION_CLASS, EXPIRATION_CLASS) ? keyProblems(value, EXPIRATION_POLICY_KEYS, within) : [];
    if (key === 'proxyPolicy') {
      const rules = proxyPolicyKeys(value['@class']);
      return rules ? keyProblems(value, rules, within) : [];
    }
    if (key === 'multifactorPolicy') {
      const rules = multifactorPolicyKeys(value['@class']);
      return rules ? keyProblems(value, rules, within) : [];
    }
    if (key === 'properties') {
      return Object.entries(value).flatMap(([name, property]) => (isRecord(property) ? keyProblems(property, PROPERTY_KEYS, `${within}${name}.`) : []));
    }
    return [];
  });
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

/** An int as Jackson reads one (javaInteger), or the error. */
function javaIntegerOr(value: unknown, fail: () => Error): number {
  const number = javaInteger(value);
  if (number === undefined) throw fail();
  return number;
}
