import {
  CAS_REGISTERED_SERVICE,
  RETURN_ALL_ATTRIBUTES,
  TicketIdGenerator,
  cryptoRandomSource,
  defaultTicketLifetimes,
  type Authentication,
  type ProxyGrantingTicket,
  type ProxyTicket,
  type RegisteredService,
  type ServiceTicket,
  type TicketGrantingTicket,
} from '@tessera/core';
import type { FixedClock } from './fixed-clock.js';

/**
 * Ids shaped like real ones (`TGT-<n>-<random>-test`); the random part keeps them unique across
 * processes too, so a shared database never sees a repeated id.
 */
const ids = new TicketIdGenerator(cryptoRandomSource, 'test');
let nextServiceId = 1000;

export function anAuthentication(overrides: Partial<Authentication> = {}): Authentication {
  return {
    principal: { id: 'casuser', attributes: { memberOf: ['staff', 'admins'], mail: ['casuser@example.org'] } },
    authenticatedAt: Date.UTC(2026, 10, 21, 10, 0, 0),
    credentials: [{ id: 'casuser', type: 'usernamePassword' }],
    successes: { 'config-users': { handlerName: 'config-users', credentialType: 'usernamePassword', principalId: 'casuser' } },
    attributes: { credentialType: ['UsernamePasswordCredential'], successfulAuthenticationHandlers: ['config-users'] },
    ...overrides,
  };
}

/** A fresh TGT created now, with the default 8 h hard and 2 h idle limits. */
export function aTicketGrantingTicket(clock: FixedClock, overrides: Partial<TicketGrantingTicket> = {}): TicketGrantingTicket {
  const now = clock.now();
  const hardExpiresAt = now + defaultTicketLifetimes.tgtMaxTimeToLiveSeconds * 1000;
  return {
    kind: 'TGT',
    id: ids.next('TGT'),
    authentication: anAuthentication({ authenticatedAt: now }),
    createdAt: now,
    hardExpiresAt,
    expiresAt: Math.min(now + defaultTicketLifetimes.tgtTimeToKillSeconds * 1000, hardExpiresAt),
    servicesGranted: 0,
    ...overrides,
  };
}

/**
 * A fresh ST created now with the default 10 s lifetime; pass `tgtId` to bind it to a stored TGT.
 * Its id carries that TGT's session tag, as the ids of granted STs do.
 */
export function aServiceTicket(clock: FixedClock, overrides: Partial<ServiceTicket> = {}): ServiceTicket {
  const now = clock.now();
  const tgtId = overrides.tgtId ?? ids.next('TGT');
  return {
    kind: 'ST',
    id: ids.next('ST', tgtId),
    tgtId,
    service: 'https://app.example.org/login?next=%2Fhome',
    fromNewLogin: true,
    authenticatedAt: now,
    createdAt: now,
    expiresAt: now + defaultTicketLifetimes.stTimeToLiveSeconds * 1000,
    ...overrides,
  };
}

/**
 * A fresh PGT created now for a proxy at `https://proxy.example.org/pgtCallback`, living as long as a
 * default TGT's hard limit; pass `tgtId` to bind it to a stored TGT. Its id carries that TGT's session tag.
 */
export function aProxyGrantingTicket(clock: FixedClock, overrides: Partial<ProxyGrantingTicket> = {}): ProxyGrantingTicket {
  const now = clock.now();
  const tgtId = overrides.tgtId ?? ids.next('TGT');
  return {
    kind: 'PGT',
    id: ids.next('PGT', tgtId),
    tgtId,
    service: 'https://proxy.example.org/portal',
    proxies: ['https://proxy.example.org/pgtCallback'],
    createdAt: now,
    expiresAt: now + defaultTicketLifetimes.tgtMaxTimeToLiveSeconds * 1000,
    ...overrides,
  };
}

/** A fresh PT created now with the default ST lifetime, for a back end behind one proxy; pass `tgtId` and `grantedBy` to bind it. */
export function aProxyTicket(clock: FixedClock, overrides: Partial<ProxyTicket> = {}): ProxyTicket {
  const now = clock.now();
  const tgtId = overrides.tgtId ?? ids.next('TGT');
  return {
    kind: 'PT',
    id: ids.next('PT', tgtId),
    tgtId,
    grantedBy: ids.next('PGT', tgtId),
    service: 'https://backend.example.org/api',
    proxies: ['https://proxy.example.org/pgtCallback'],
    authenticatedAt: now,
    createdAt: now,
    expiresAt: now + defaultTicketLifetimes.stTimeToLiveSeconds * 1000,
    ...overrides,
  };
}

export function aRegisteredService(overrides: Partial<RegisteredService> = {}): RegisteredService {
  const id = overrides.id ?? nextServiceId++;
  return {
    id,
    type: CAS_REGISTERED_SERVICE,
    name: `service-${id}`,
    serviceId: '^https://app\\.example\\.org/.*',
    evaluationOrder: 0,
    accessStrategy: { enabled: true, ssoEnabled: true, requiredAttributes: {} },
    attributeRelease: { type: RETURN_ALL_ATTRIBUTES },
    properties: {},
    ...overrides,
  };
}
