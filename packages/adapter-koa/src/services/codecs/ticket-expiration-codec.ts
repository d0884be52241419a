import {
  appliesToTickets,
  durationSeconds,
  type InvalidServiceDefinitionError,
  type RegisteredService,
  type ServiceDefinitionProblem,
  type UseLimitedTicketExpiration,
} from '@tessera/core';
import { isClass, isEmptyCollection, isRecord, keyProblems, TICKET_EXPIRATION_KEYS, type KeyRules } from './cas-service-keys.js';
import { javaInteger } from './java-collections.js';

type Fail = (field: string, problem: string) => InvalidServiceDefinitionError;

const CAS = 'org.apereo.cas.services';

type ExpirationFields = Pick<RegisteredService, 'ticketGrantingTicketExpiration' | 'serviceTicketExpiration' | 'proxyTicketExpiration' | 'proxyGrantingTicketExpiration'>;

/** How each key is read: its class, its keys, and the field of the service it fills. */
export const TICKET_EXPIRATION_POLICIES = {
  ticketGrantingTicketExpirationPolicy: {
    className: 'DefaultRegisteredServiceTicketGrantingTicketExpirationPolicy',
    field: 'ticketGrantingTicketExpiration',
    keys: {
      read: ['@class', 'maxTimeToLiveInSeconds'],
      unsupported: {
        userAgents: { instead: 'a service’s session lifetime is the same for every browser: write it as maxTimeToLiveInSeconds', accepted: { when: isEmptyCollection, as: 'an empty map' } },
        ipAddresses: { instead: 'a service’s session lifetime is the same for every client address: write it as maxTimeToLiveInSeconds', accepted: { when: isEmptyCollection, as: 'an empty map' } },
      },
    },
  },
  serviceTicketExpirationPolicy: {
    className: 'DefaultRegisteredServiceServiceTicketExpirationPolicy',
    field: 'serviceTicketExpiration',
    keys: { read: ['@class', 'numberOfUses', 'timeToLive'] },
  },
  proxyTicketExpirationPolicy: {
    className: 'DefaultRegisteredServiceProxyTicketExpirationPolicy',
    field: 'proxyTicketExpiration',
    keys: { read: ['@class', 'numberOfUses', 'timeToLive'] },
  },
  proxyGrantingTicketExpirationPolicy: {
    className: 'DefaultRegisteredServiceProxyGrantingTicketExpirationPolicy',
    field: 'proxyGrantingTicketExpiration',
    keys: { read: ['@class', 'maxTimeToLiveInSeconds'] },
  },
} as const satisfies Readonly<Record<(typeof TICKET_EXPIRATION_KEYS)[number], { className: string; field: keyof ExpirationFields; keys: KeyRules }>>;

export type TicketExpirationKey = (typeof TICKET_EXPIRATION_KEYS)[number];

export function isTicketExpirationKey(key: string): key is TicketExpirationKey {
  return Object.hasOwn(TICKET_EXPIRATION_POLICIES, key);
}

/** Problems with the keys of one of these policies, when it is of the class tessera reads (its class is checked when it is read). */
export function ticketExpirationKeyProblems(key: TicketExpirationKey, value: unknown, field: string): ServiceDefinitionProblem[] {
  const { className, keys } = TICKET_EXPIRATION_POLICIES[key];
  return isRecord(value) && isClass(value['@class'] ?? className, className) ? keyProblems(value, keys, `${field}.`) : [];
}

/** One of the four policies (`key`), kept only when the definition has it so it round-trips as written. */
export function parseTicketExpiration(key: TicketExpirationKey, value: unknown, fail: Fail): ExpirationFields {
  if (value === undefined || value === null) return {};
  const { className, field } = TICKET_EXPIRATION_POLICIES[key];
  if (!isRecord(value)) throw fail('(policy)', 'must be an object');
  if (!isClass(value['@class'] ?? className, className)) throw fail('@class', `must be ${className} (${CAS})`);
  switch (key) {
    case 'ticketGrantingTicketExpirationPolicy':
      // 0 or less: the session lifetimes of tickets.tgt, as in CAS.
      return { ticketGrantingTicketExpiration: { maxTimeToLiveInSeconds: seconds(value, fail) } };
    case 'proxyGrantingTicketExpirationPolicy': {
      const maxTimeToLiveInSeconds = seconds(value, fail);
      if (maxTimeToLiveInSeconds <= 0) {
        throw fail('maxTimeToLiveInSeconds', 'must be more than 0: CAS issues proxy-granting tickets that are dead at once with 0 or less; leave the policy out for ones that live as long as their login session');
      }
      return { proxyGrantingTicketExpiration: { maxTimeToLiveInSeconds } };
    }
    case 'serviceTicketExpirationPolicy':
    case 'proxyTicketExpirationPolicy':
      return { [field]: useLimited(value, fail) };
  }
}

/** `maxTimeToLiveInSeconds`, a Java long; absent is 0. */
function seconds(value: Readonly<Record<string, unknown>>, fail: Fail): number {
  const written = javaInteger(value['maxTimeToLiveInSeconds'] ?? 0);
  if (written === undefined) throw fail('maxTimeToLiveInSeconds', 'must be a whole number of seconds');
  return written;
}

/**
 * `numberOfUses` and `timeToLive` of an ST or PT policy. CAS applies one only with uses above 0 and a
 * time to live written (otherwise the default lifetime and one use): then the time must be at least a
 * second, as CAS fails every grant otherwise.
 */
function useLimited(value: Readonly<Record<string, unknown>>, fail: Fail): UseLimitedTicketExpiration {
  const numberOfUses = javaInteger(value['numberOfUses'] ?? 0);
  if (numberOfUses === undefined) throw fail('numberOfUses', 'must be a whole number');
  const written = value['timeToLive'] ?? undefined;
  // A Java String: Jackson takes a number written there as its text.
  if (written !== undefined && typeof written !== 'string' && !(typeof written === 'number' && Number.isSafeInteger(written))) {
    throw fail('timeToLive', 'must be a number of seconds ("30") or an ISO-8601 duration ("PT30S")');
  }
  const policy: UseLimitedTicketExpiration = { numberOfUses, ...(written !== undefined && { timeToLive: String(written) }) };
  if (!appliesToTickets(policy)) return policy;
  const lifetime = durationSeconds(policy.timeToLive);
  if (Number.isNaN(lifetime)) throw fail('timeToLive', 'must be a number of seconds ("30") or an ISO-8601 duration ("PT30S")');
  if (lifetime < 1) throw fail('timeToLive', `must be at least 1 second: CAS grants no ticket for a time to live of ${JSON.stringify(policy.timeToLive)}`);
  return policy;
}

/** The four policies as CAS writes them, each only when the service has it. */
export function ticketExpirationJson(service: ExpirationFields): Record<string, unknown> {
  const json: Record<string, unknown> = {};
  for (const key of TICKET_EXPIRATION_KEYS) {
    const { className, field } = TICKET_EXPIRATION_POLICIES[key];
    const policy = service[field];
    if (policy !== undefined) json[key] = { '@class': `${CAS}.${className}`, ...policy };
  }
  return json;
}
