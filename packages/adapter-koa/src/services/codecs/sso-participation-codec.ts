import { TIME_UNITS, type InvalidServiceDefinitionError, type ServiceDefinitionProblem, type SingleSignOnParticipation, type TimeUnit } from '@tessera/core';
import { isClass, isRecord, keyProblems, type KeyRules, type Unsupported } from './cas-service-keys.js';
import { javaInteger, javaList, javaMembers } from './java-collections.js';
import { readEach } from './parse-parts.js';

type Fail = (field: string, problem: string) => InvalidServiceDefinitionError;

const CAS = 'org.apereo.cas.services';
const DEFAULT = 'DefaultRegisteredServiceSingleSignOnParticipationPolicy';
const NEVER = 'NeverRegisteredServiceSingleSignOnParticipationPolicy';
const AUTHENTICATION_DATE = 'AuthenticationDateRegisteredServiceSingleSignOnParticipationPolicy';
const LAST_USED_TIME = 'LastUsedTimeRegisteredServiceSingleSignOnParticipationPolicy';
const CHAINING = 'ChainingRegisteredServiceSingleSignOnParticipationPolicy';
const GROOVY = 'GroovyRegisteredServiceSingleSignOnParticipationPolicy';
const CLASSES = `${DEFAULT}, ${NEVER}, ${AUTHENTICATION_DATE}, ${LAST_USED_TIME} or ${CHAINING} (${CAS})`;

// A login with renew starts (or keeps) the browser's session as any other: CAS's TRUE.
const COOKIE_ON_RENEW: Unsupported = {
  instead: 'a login with renew starts or keeps the browser’s single sign-on session as any other login does',
  accepted: { when: (value) => value === 'TRUE' || value === 'UNDEFINED' || value === true, as: 'TRUE or UNDEFINED' },
};
const KEYS: Readonly<Record<string, KeyRules>> = {
  [DEFAULT]: { read: ['@class'], descriptive: ['order'], unsupported: { createCookieOnRenewedAuthentication: COOKIE_ON_RENEW } },
  [NEVER]: { read: ['@class'], descriptive: ['order'] },
  [AUTHENTICATION_DATE]: { read: ['@class', 'timeUnit', 'timeValue', 'order'], unsupported: { createCookieOnRenewedAuthentication: COOKIE_ON_RENEW } },
  [LAST_USED_TIME]: { read: ['@class', 'timeUnit', 'timeValue', 'order'], unsupported: { createCookieOnRenewedAuthentication: COOKIE_ON_RENEW } },
  // CAS ignores a chain's own order.
  [CHAINING]: { read: ['@class', 'policies'], descriptive: ['order'] },
};

function className(json: Readonly<Record<string, unknown>>): string | undefined {
  return Object.keys(KEYS).find((name) => isClass(json['@class'], name));
}

/** Problems with the keys of a `singleSignOnParticipationPolicy` of a class tessera reads, and of those a chain holds; its class is checked when it is read. */
export function singleSignOnParticipationKeyProblems(json: unknown, field: string): ServiceDefinitionProblem[] {
  if (!isRecord(json)) return [];
  const name = className(json);
  if (name === undefined) return [];
  return keyProblems(json, KEYS[name] ?? { read: [] }, `${field}.`, (key, value, inner) =>
    name === CHAINING && key === 'policies' ? (javaMembers(value) ?? []).flatMap((each, index) => singleSignOnParticipationKeyProblems(each, `${inner}[${index}]`)) : [],
  );
}

/** `singleSignOnParticipationPolicy`, kept only when present so the definition round-trips. */
export function parseSingleSignOnParticipation(json: unknown, fail: Fail): SingleSignOnParticipation | undefined {
  if (json === undefined || json === null) return undefined;
  return parsePolicy(json, fail);
}

function parsePolicy(json: unknown, fail: Fail): SingleSignOnParticipation {
  if (!isRecord(json)) throw fail('(policy)', 'must be an object');
  if (isClass(json['@class'], GROOVY)) throw fail('@class', `a Groovy script cannot run in tessera; write the rule as ${CLASSES}`);
  const name = className(json);
  if (name === undefined) throw fail('@class', `must be ${CLASSES}`);
  if (name === DEFAULT) return { kind: 'always' };
  if (name === NEVER) return { kind: 'never' };
  if (name === CHAINING) return { kind: 'chain', policies: parseChained(json['policies'], fail) };
  const timeUnit = json['timeUnit'] ?? 'SECONDS';
  if (!TIME_UNITS.includes(timeUnit as TimeUnit)) throw fail('timeUnit', `must be one of ${TIME_UNITS.join(', ')}`);
  const timeValue = javaInteger(json['timeValue'] ?? 0);
  if (timeValue === undefined) throw fail('timeValue', 'must be an integer (0 or less: always)');
  const order = javaInteger(json['order'] ?? 0);
  if (order === undefined) throw fail('order', 'must be an integer');
  return { kind: name === AUTHENTICATION_DATE ? 'authenticationDate' : 'lastUsedTime', timeUnit: timeUnit as TimeUnit, timeValue, order };
}

function parseChained(written: unknown, fail: Fail): SingleSignOnParticipation[] {
  const members = javaMembers(written ?? []);
  if (!members) throw fail('policies', 'must be a list of single sign-on participation policies');
  return readEach(members, (each, index) => parsePolicy(each, (field, problem) => fail(`policies[${index}].${field}`, problem)));
}

/** The policy as CAS writes it, options only when not their default. */
export function renderSingleSignOnParticipation(policy: SingleSignOnParticipation): Record<string, unknown> {
  switch (policy.kind) {
    case 'always':
      return { '@class': `${CAS}.${DEFAULT}` };
    case 'never':
      return { '@class': `${CAS}.${NEVER}` };
    case 'chain':
      return { '@class': `${CAS}.${CHAINING}`, policies: javaList(policy.policies.map(renderSingleSignOnParticipation)) };
    case 'authenticationDate':
    case 'lastUsedTime':
      return {
        '@class': `${CAS}.${policy.kind === 'authenticationDate' ? AUTHENTICATION_DATE : LAST_USED_TIME}`,
        timeUnit: policy.timeUnit,
        timeValue: policy.timeValue,
        ...(policy.order !== 0 && { order: policy.order }),
      };
  }
}
