import {
  CAS_REGISTERED_SERVICE,
  DENY_ALL_ATTRIBUTES,
  RETURN_ALL_ATTRIBUTES,
  type ServicePolicies,
  type AuthenticationPolicy,
  type CredentialHandler,
  cryptoRandomSource,
  defaultTicketLifetimes,
  type CasCore,
  type RegisteredService,
  type SecondFactorProvider,
  type TicketStore,
} from '@tessera/core';
import { GrantProxyTicket, IssueProxyGrantingTicket, type ProxyCallback } from '@tessera/core/modules/proxy';
import { AuthenticationThrottle, FailureLocks, RequestRateLimit, type ThrottleSettings, type RequestRateSettings } from '@tessera/core/modules/throttle';
import { CasJwtCodec, JwtTickets, generateTokenKeys, type TokenKeys } from '@tessera/core/modules/tokens';
import { expect } from 'chai';
import request from 'supertest';
import { LOOPBACK_HOSTS, createApp, usernamePasswordExtractor, type CredentialExtractor, type HttpModule, type HttpOptions, type RequestObserver } from '../src/index.js';
import { proxyModule } from '../src/modules/proxy/index.js';
import { restModule } from '../src/modules/rest/index.js';
import { throttleModule } from '../src/modules/throttle/index.js';
import { tokensModule } from '../src/modules/tokens/index.js';
import { builtInServicePolicies, testCore } from '@tessera/testkit';
import { MapThrottleStore } from '@tessera/testkit/modules/throttle';
import { DrainingRateStore } from './modules/throttle/throttle-fakes.js';
import { FakePasswordHandler, ListServiceRegistry, FixedClock, MapTicketStore, RecordingEvents, type FakeUser } from './fakes.js';

export const APP = 'https://app.example.org/home';
/** Registered, but only for principals with memberOf=admin. */
export const ADMIN_APP = 'https://admin.example.org/console';
/** Registered, releases no attributes. */
export const QUIET_APP = 'https://quiet.example.org/';
/** Registered with jwtAsServiceTicket: its STs are JWTs when the tokens module is on. */
export const JWT_APP = 'https://jwt.example.org/app';
export const UNREGISTERED = 'https://unknown.example.com/';

export const CASUSER = { username: 'casuser', password: 'Mellon' } as const;

function service(id: number, name: string, serviceId: string, overrides: Partial<RegisteredService> = {}): RegisteredService {
  return {
    id,
    type: CAS_REGISTERED_SERVICE,
    name,
    serviceId,
    evaluationOrder: id,
    accessStrategy: { enabled: true, ssoEnabled: true, requiredAttributes: {} },
    attributeRelease: { type: RETURN_ALL_ATTRIBUTES },
    properties: {},
    ...overrides,
  };
}

/** Registered, and may receive PGTs at PROXY_CALLBACK. */
export const PROXY_APP = 'https://proxy.example.org/portal';
export const PROXY_CALLBACK = 'https://proxy.example.org/pgtCallback';

const SERVICES = [
  service(1, 'app', '^https://app\\.example\\.org/.*'),
  service(5, 'proxy', '^https://proxy\\.example\\.org/.*', { proxyPolicy: { kind: 'regex', pattern: '^https://proxy\\.example\\.org/pgtCallback$', useServiceId: false, exactMatch: false } }),
  service(2, 'admin', '^https://admin\\.example\\.org/.*', {
    accessStrategy: { enabled: true, ssoEnabled: true, requiredAttributes: { memberOf: ['admin'] } },
  }),
  service(3, 'quiet', '^https://quiet\\.example\\.org/.*', { attributeRelease: { type: DENY_ALL_ATTRIBUTES } }),
  service(4, 'jwt', '^https://jwt\\.example\\.org/.*', { properties: { jwtAsServiceTicket: ['true'] } }),
];

export const DEFAULT_OPTIONS: HttpOptions = {
  basePath: '/cas',
  trustProxy: false,
  allowedHosts: LOOPBACK_HOSTS,
  validationFailureStatus: 400,
  maxBodyBytes: 4096,
  // As the central authentication declares its kind (cli-server's credential-kinds.ts).
  samlAuthenticationMethods: { usernamePassword: 'urn:oasis:names:tc:SAML:1.0:am:password' },
};

export interface ServerSetup {
  readonly options?: Partial<HttpOptions>;
  /** The revision the rest module's routes speak (`rest.revision`); `current` unless given. */
  readonly restRevision?: 'current' | 'earlier';
  readonly users?: Readonly<Record<string, FakeUser>>;
  readonly tickets?: TicketStore;
  /** Switches the tokens module on with these keys. */
  readonly tokenKeys?: TokenKeys;
  /** Modules besides `rest`, built on the same core and stores. */
  readonly modules?: (parts: { core: CasCore; tickets: TicketStore; registry: ListServiceRegistry; events: RecordingEvents }) => HttpModule[];
  /** Replace the fake password handler (casuser/Mellon), the username/password extractor, no policies. */
  readonly handlers?: readonly CredentialHandler[];
  readonly extractors?: readonly CredentialExtractor[];
  readonly policies?: readonly AuthenticationPolicy[];
  /** Switches the throttle module on, its state in `throttleStore`. */
  readonly throttle?: ThrottleSettings | undefined;
  /** A request-rate limit on the validation endpoints, its buckets draining without refill. */
  readonly validationRate?: RequestRateSettings;
  /** Told about every request (the latency histogram's hook). */
  readonly observeRequest?: RequestObserver;
  /** Switches the proxy module on, PGTs delivered through this callback. */
  readonly proxyCallback?: ProxyCallback;
  /** The release policies and username providers; the built-in ones when omitted. */
  readonly servicePolicies?: ServicePolicies;
  /** The second factors services' multifactorPolicy may ask; none when omitted. */
  readonly secondFactors?: readonly SecondFactorProvider[];
}

export function testTokenKeys(): TokenKeys {
  return { ...generateTokenKeys('A128CBC-HS256', cryptoRandomSource), encryptionAlgorithm: 'A128CBC-HS256' };
}

/**
 * A real core on fakes behind the app: casuser/Mellon with memberOf staff, faculty. `tickets` is the
 * in-memory store the core uses unless `setup.tickets` replaces it.
 */
export function testServer(setup: ServerSetup = {}) {
  const clock = new FixedClock();
  const tickets = new MapTicketStore(clock);
  const events = new RecordingEvents();
  const handler = new FakePasswordHandler({
    casuser: { password: 'Mellon', attributes: { memberOf: ['staff', 'faculty'] } },
    ...setup.users,
  });
  const registry = new ListServiceRegistry(SERVICES);
  const throttleStore = new MapThrottleStore();
  const authenticationThrottle = setup.throttle && new AuthenticationThrottle(new FailureLocks(throttleStore, clock, setup.throttle), events, ['usernamePassword', 'otp']);
  const servicePolicies = setup.servicePolicies ?? builtInServicePolicies();
  const core = testCore({
    tickets: setup.tickets ?? tickets,
    registry,
    servicePolicies,
    handlers: setup.handlers ?? [handler],
    ...(setup.policies && { policies: setup.policies }),
    ...(authenticationThrottle && { authenticationListeners: [authenticationThrottle] }),
    ...(setup.secondFactors && { secondFactors: setup.secondFactors }),
    clock,
    random: cryptoRandomSource,
    nodeName: 'test',
    lifetimes: defaultTicketLifetimes,
    events,
  });
  const store = setup.tickets ?? tickets;
  const proxy =
    setup.proxyCallback &&
    proxyModule({
      grantProxyTicket: new GrantProxyTicket(core, store, events),
      issueProxyGrantingTicket: new IssueProxyGrantingTicket(core, store, setup.proxyCallback, events),
    });
  const throttle =
    (setup.throttle || setup.validationRate) &&
    throttleModule({
      ...(authenticationThrottle && { authentication: authenticationThrottle }),
      ...(setup.validationRate && { validationRate: new RequestRateLimit(new DrainingRateStore(), clock, setup.validationRate) }),
    });
  const app = createApp({
    core,
    options: { ...DEFAULT_OPTIONS, ...setup.options },
    modules: [
      restModule({ newLoginWindowSeconds: 30, revision: setup.restRevision ?? 'current' }),
      ...(setup.tokenKeys ? [tokensModule(new JwtTickets(new CasJwtCodec(setup.tokenKeys, clock), clock, core.relyingParties.release, undefined))] : []),
      ...(throttle ? [throttle] : []),
      ...(proxy ? [proxy] : []),
      ...(setup.modules?.({ core, tickets: store, registry, events }) ?? []),
    ],
    extractors: setup.extractors ?? [usernamePasswordExtractor],
    events,
    ...(setup.observeRequest && { observeRequest: setup.observeRequest }),
  });
  const http = request(app.callback());
  return { app, http, clock, tickets, events, core, registry, throttleStore, servicePolicies };
}

export type TestServer = ReturnType<typeof testServer>;

/** Logs in over REST and returns the bare TGT id. */
export async function createTgt(server: TestServer, credentials: { username: string; password: string } = CASUSER): Promise<string> {
  const response = await server.http.post('/cas/v1/tickets').set('Accept', 'text/plain').type('form').send(credentials);
  expect(response.status, response.text).to.equal(201);
  return response.text;
}

export async function grantSt(server: TestServer, tgt: string, service = APP): Promise<string> {
  const response = await server.http.post(`/cas/v1/tickets/${tgt}`).type('form').send({ service });
  expect(response.status, response.text).to.equal(200);
  return response.text;
}

/** A fresh login's first ST for `service`. */
export async function loginSt(server: TestServer, service = APP, credentials: { username: string; password: string } = CASUSER): Promise<string> {
  return grantSt(server, await createTgt(server, credentials), service);
}
