import {
  isKnownZone,
  requestPattern,
  windowInstant,
  type AccessStrategy,
  type AccessWindow,
  type ActivationCriteria,
  type AttributeMap,
  type InvalidServiceDefinitionError,
  type RequestRules,
  type ServiceDefinitionProblem,
} from '@tessera/core';
import { ACCESS_STRATEGY_KEYS, isClass, isRecord, type KeyRules } from './cas-service-keys.js';
import { javaSet, stringList } from './java-collections.js';
import { isHttpUrl, optionalBoolean, partReader, throwAll } from './parse-parts.js';

const CAS = 'org.apereo.cas.services';
const DEFAULT = 'DefaultRegisteredServiceAccessStrategy';
const TIME_BASED = 'TimeBasedRegisteredServiceAccessStrategy';
const HTTP_REQUEST = 'HttpRequestRegisteredServiceAccessStrategy';
const WINDOW_KEYS = ['startingDateTime', 'endingDateTime', 'zoneId'] as const;
const REQUEST_KEYS = ['ipAddress', 'userAgent'] as const;

/** Each access strategy class tessera reads, by simple name: the default one's keys, and its own. */
export const ACCESS_STRATEGY_CLASSES: Readonly<Record<string, KeyRules>> = {
  [DEFAULT]: ACCESS_STRATEGY_KEYS,
  [TIME_BASED]: { ...ACCESS_STRATEGY_KEYS, read: [...ACCESS_STRATEGY_KEYS.read, ...WINDOW_KEYS] },
  [HTTP_REQUEST]: {
    ...ACCESS_STRATEGY_KEYS,
    read: [...ACCESS_STRATEGY_KEYS.read, ...REQUEST_KEYS],
    unsupported: { ...ACCESS_STRATEGY_KEYS.unsupported, headers: { instead: 'an HTTP request strategy matches the client address (ipAddress) and the User-Agent (userAgent) only' } },
  },
};

const CLASS_NAMES = Object.keys(ACCESS_STRATEGY_CLASSES).join(', ');

/** The keys of the access strategy class `type` (absent: the default one); undefined for a class tessera does not read. */
export function accessStrategyKeys(type: unknown): KeyRules | undefined {
  if (type === undefined) return ACCESS_STRATEGY_KEYS;
  const name = Object.keys(ACCESS_STRATEGY_CLASSES).find((candidate) => isClass(type, candidate));
  return name === undefined ? undefined : ACCESS_STRATEGY_CLASSES[name];
}

type Fail = (field: string, problem: string) => InvalidServiceDefinitionError;

/**
 * `accessStrategy` (absent: enabled, single sign-on, no rules). The keys of its class only; each
 * problem of a value is reported, all at once.
 */
export function parseAccessStrategy(value: unknown, fail: Fail): AccessStrategy {
  if (value === undefined || value === null) return { enabled: true, ssoEnabled: true, requiredAttributes: {} };
  if (!isRecord(value)) throw fail('(strategy)', 'must be an object');
  const type = value['@class'];
  if (accessStrategyKeys(type) === undefined) throw fail('@class', `must be one of ${CLASS_NAMES} (org.apereo.cas.services)`);
  const problems: ServiceDefinitionProblem[] = [];
  const part = partReader(problems);
  const flag = (key: string, fallback: boolean) => part(() => optionalBoolean(value[key], fallback, () => fail(key, 'must be a boolean')));
  const enabled = flag('enabled', true);
  const ssoEnabled = flag('ssoEnabled', true);
  const requireAllAttributes = flag('requireAllAttributes', true);
  const caseInsensitive = flag('caseInsensitive', false);
  const attributeMap = (key: string) => part(() => parseAttributeMap(value[key], (name) => fail(`${key}.${name}`, 'must be a list of strings')));
  const requiredAttributes = attributeMap('requiredAttributes');
  const rejectedAttributes = attributeMap('rejectedAttributes') ?? {};
  const unauthorizedRedirectUrl = part(() => parseRedirectUrl(value['unauthorizedRedirectUrl'], fail));
  const window = isClass(type, TIME_BASED) ? part(() => parseWindow(value, fail)) : undefined;
  const request = isClass(type, HTTP_REQUEST) ? part(() => parseRequestRules(value, fail)) : undefined;
  const activation = part(() => parseActivationCriteria(value['activationCriteria'], (field, problem) => fail(`activationCriteria.${field}`, problem)));
  throwAll(problems);
  return {
    enabled: enabled as boolean,
    ssoEnabled: ssoEnabled as boolean,
    requiredAttributes: requiredAttributes as AttributeMap,
    ...(requireAllAttributes === false && { requireAllAttributes: false }),
    ...(caseInsensitive === true && { caseInsensitive: true }),
    ...(Object.keys(rejectedAttributes).length > 0 && { rejectedAttributes }),
    ...(unauthorizedRedirectUrl !== undefined && { unauthorizedRedirectUrl }),
    ...(window !== undefined && { window }),
    ...(request !== undefined && { request }),
    ...(activation !== undefined && { activation }),
  };
}

/** The strategy as CAS writes it: its class, then only the keys that are not their default (enabled and ssoEnabled always). */
export function accessStrategyJson(strategy: AccessStrategy): Record<string, unknown> {
  const type = strategy.window !== undefined ? TIME_BASED : strategy.request !== undefined ? HTTP_REQUEST : DEFAULT;
  return {
    '@class': `${CAS}.${type}`,
    enabled: strategy.enabled,
    ssoEnabled: strategy.ssoEnabled,
    requiredAttributes: javaMap(strategy.requiredAttributes),
    ...(strategy.requireAllAttributes === false && { requireAllAttributes: false }),
    ...(strategy.caseInsensitive === true && { caseInsensitive: true }),
    ...(strategy.rejectedAttributes !== undefined && { rejectedAttributes: javaMap(strategy.rejectedAttributes) }),
    ...(strategy.unauthorizedRedirectUrl !== undefined && { unauthorizedRedirectUrl: strategy.unauthorizedRedirectUrl }),
    ...strategy.window,
    ...strategy.request,
    ...(strategy.activation !== undefined && { activationCriteria: activationCriteriaJson(strategy.activation) }),
  };
}

const ACTIVATION = 'AttributeBasedRegisteredServiceAccessStrategyActivationCriteria';
const ACTIVATION_KEYS = ['@class', 'requiredAttributes', 'operator', 'allowIfInactive', 'order'];

/**
 * `activationCriteria`: AttributeBasedRegisteredServiceAccessStrategyActivationCriteria, with CAS's
 * defaults (`AND`, `allowIfInactive: true`). Another class (a Groovy script) is refused.
 */
function parseActivationCriteria(value: unknown, fail: Fail): ActivationCriteria | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) throw fail('(criteria)', 'must be an object');
  if (!isClass(value['@class'], ACTIVATION)) {
    throw fail('@class', `must be ${ACTIVATION} (org.apereo.cas.services): the attribute rules apply to the principals whose attributes it names; tessera runs no script`);
  }
  const problems: ServiceDefinitionProblem[] = Object.keys(value)
    .filter((key) => !ACTIVATION_KEYS.includes(key))
    .map((key) => ({ field: key, problem: `unknown key (known: ${ACTIVATION_KEYS.join(', ')})` }))
    .map(({ field, problem }) => fail(field, problem).problems[0]);
  const part = partReader(problems);
  const requiredAttributes = part(() => parseAttributeMap(value['requiredAttributes'], (name) => fail(`requiredAttributes.${name}`, 'must be a list of strings')));
  const operator = part(() => {
    const written = value['operator'] ?? 'AND';
    if (written !== 'AND' && written !== 'OR') throw fail('operator', 'must be AND or OR');
    return written;
  });
  const allowIfInactive = part(() => optionalBoolean(value['allowIfInactive'], true, () => fail('allowIfInactive', 'must be a boolean')));
  const order = part(() => {
    const written = value['order'] ?? 0;
    if (typeof written !== 'number' || !Number.isSafeInteger(written)) throw fail('order', 'must be an integer');
    return written;
  });
  throwAll(problems);
  return { requiredAttributes: requiredAttributes as AttributeMap, operator: operator as 'AND' | 'OR', allowIfInactive: allowIfInactive as boolean, ...(order !== 0 && order !== undefined && { order }) };
}

function activationCriteriaJson(criteria: ActivationCriteria): Record<string, unknown> {
  return {
    '@class': `${CAS}.${ACTIVATION}`,
    requiredAttributes: javaMap(criteria.requiredAttributes),
    operator: criteria.operator,
    allowIfInactive: criteria.allowIfInactive,
    ...(criteria.order !== undefined && { order: criteria.order }),
  };
}

/** A redirect target the operator chose: absolute http or https, nothing a browser would run. */
function parseRedirectUrl(value: unknown, fail: Fail): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !isHttpUrl(value)) throw fail('unauthorizedRedirectUrl', 'must be an absolute http or https URL (where a refused browser is sent)');
  return value;
}

const DATE_TIME_FORMS = 'an ISO date-time with an offset (2030-01-31T09:00:00+01:00), or without one, local to zoneId (2030-01-31T09:00:00), or a date (2030-01-31)';

/** TimeBasedRegisteredServiceAccessStrategy's window: each end as written, checked to be a date-time CAS reads, in a zone it knows. */
function parseWindow(value: Readonly<Record<string, unknown>>, fail: Fail): AccessWindow {
  const problems: ServiceDefinitionProblem[] = [];
  const part = partReader(problems);
  const text = (key: string) =>
    part(() => {
      const written = value[key];
      if (written === undefined || written === null) return undefined;
      if (typeof written !== 'string') throw fail(key, 'must be a string');
      return written.trim() === '' ? undefined : written;
    });
  const zoneId = text('zoneId');
  if (zoneId !== undefined && !isKnownZone(zoneId)) problems.push({ field: 'zoneId', problem: 'is not a time zone (write a region such as Europe/Paris, UTC, or an offset such as +02:00)' });
  const zone = zoneId !== undefined && isKnownZone(zoneId) ? zoneId : undefined;
  const instant = (key: 'startingDateTime' | 'endingDateTime') => {
    const written = text(key);
    if (written !== undefined && Number.isNaN(windowInstant(written, zone))) problems.push({ field: key, problem: `must be ${DATE_TIME_FORMS}` });
    return written;
  };
  const startingDateTime = instant('startingDateTime');
  const endingDateTime = instant('endingDateTime');
  throwAll(problems.map(({ field, problem }) => fail(field, problem).problems[0]));
  return { ...(startingDateTime !== undefined && { startingDateTime }), ...(endingDateTime !== undefined && { endingDateTime }), ...(zoneId !== undefined && { zoneId }) };
}

/** HttpRequestRegisteredServiceAccessStrategy's patterns, each a regular expression. */
function parseRequestRules(value: Readonly<Record<string, unknown>>, fail: Fail): RequestRules {
  const problems: ServiceDefinitionProblem[] = [];
  const rules: Record<string, string> = {};
  for (const key of REQUEST_KEYS) {
    const written = value[key];
    if (written === undefined || written === null) continue;
    if (typeof written !== 'string' || requestPattern(written) === null) problems.push(fail(key, 'must be a regular expression').problems[0]);
    else if (written.trim() !== '') rules[key] = written;
  }
  throwAll(problems);
  return rules;
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

function javaMap(map: AttributeMap): Record<string, unknown> {
  const json: Record<string, unknown> = { '@class': 'java.util.HashMap' };
  for (const [name, values] of Object.entries(map)) json[name] = javaSet(values);
  return json;
}
