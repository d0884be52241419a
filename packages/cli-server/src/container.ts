import { Container } from 'inversify';
import type { Logger } from 'pino';
import { LOOPBACK_HOSTS, createApp, type HttpOptions } from '@tessera/adapter-koa';
import type { MongoDatabase } from '@tessera/adapter-mongo';
import {
  Argon2PasswordHasher,
  AuthenticateUser,
  Authenticator,
  CreateTicketGrantingTicket,
  DestroyTicketGrantingTicket,
  GrantServiceTicket,
  ReadinessProbe,
  ServiceAccess,
  TicketIdGenerator,
  TicketStatus,
  ValidateServiceTicket,
  cryptoRandomSource,
  systemClock,
  type RegisteredService,
} from '@tessera/core';
import { AuditEventSink } from './audit/audit-event-sink.js';
import type { Config } from './config/schema.js';
import { Binder } from './di.js';
import { FanOutEventSink } from './events/fan-out-event-sink.js';
import { LoggingEventSink } from './logging.js';
import { registerMetrics } from './metrics/register-metrics.js';
import { enabledModules } from './modules/index.js';
import { openStorage } from './storage/storage.js';
import { KEYS } from './keys.js';
import { TESSERA_VERSION } from './version.js';

export interface CompositionInputs {
  readonly config: Config;
  readonly logger: Logger;
  /** The audit trail's logger; none when `audit.destination` is off. */
  readonly auditLogger?: Logger | undefined;
  /** The configured services (configuration, services directory, demo), ids assigned; none when omitted. */
  readonly services?: readonly RegisteredService[];
  /** Tests only: a stand-in MongoDB database for `storage.type: mongo`, used instead of connecting. */
  readonly mongoDatabase?: MongoDatabase | undefined;
  /** The server's start: see StorageInputs. */
  readonly serveBeforeStore?: boolean;
}

/**
 * The composition root: the storage, every port bound to its adapter, the use cases, the HTTP app,
 * then each enabled module adds its routes, extractors and handlers. Nothing is built until something
 * asks for it; `open()` opens the storage (connecting to Mongo or Redis), `close()` closes it.
 */
export function buildContainer({ config, logger, auditLogger, services = [], mongoDatabase, serveBeforeStore = false }: CompositionInputs): Binder {
  const binder = new Binder(new Container());
  binder.constant(KEYS.Config, config);
  binder.constant(KEYS.Logger, logger);
  binder.constant(KEYS.Clock, systemClock);
  binder.constant(KEYS.RandomSource, cryptoRandomSource);

  binder.resolved(KEYS.EventSink, [{ all: KEYS.EventSinks }], (sinks) => new FanOutEventSink(sinks));
  binder.resolved(KEYS.EventSinks, [KEYS.Logger], (log) => new LoggingEventSink(log));
  if (config.metrics.enabled) registerMetrics(binder);
  if (auditLogger) binder.constant(KEYS.EventSinks, new AuditEventSink(auditLogger));
  binder.resource(
    KEYS.Storage,
    [KEYS.Clock],
    (clock) => openStorage({ config, services, clock, logger, serveBeforeStore, ...(mongoDatabase !== undefined && { mongoDatabase }) }),
    (storage) => storage.close(),
  );
  binder.resolved(KEYS.ReadinessCheck, [KEYS.Storage], (storage) => storage.ports.readiness);
  binder.resolved(KEYS.ReadinessProbe, [{ all: KEYS.ReadinessCheck }, KEYS.EventSink], (checks, events) => new ReadinessProbe(checks, config.health.timeoutMs, events));
  binder.resolved(KEYS.LiveTgtCount, [KEYS.Storage], (storage) => storage.ports.liveTgts);
  binder.resolved(KEYS.TicketStore, [KEYS.Storage], (storage) => storage.ports.tickets);
  binder.resolved(KEYS.ServiceRegistry, [KEYS.Storage], (storage) => storage.ports.registry);
  binder.resolved(KEYS.UserDirectory, [KEYS.Storage], (storage) => storage.ports.users);
  // The CLI's `services import` saves for real only where the registry outlives the process.
  binder.constant(KEYS.ServiceRegistryOutlivesProcess, config.storage.type !== 'memory');
  binder.resolved(KEYS.PasswordHasher, [], () => new Argon2PasswordHasher());

  bindUseCases(binder, config);
  binder.resolved(
    KEYS.HttpApp,
    [
      KEYS.CasCore,
      { all: KEYS.HttpModule },
      { all: KEYS.CredentialExtractor },
      KEYS.EventSink,
      { all: KEYS.Metrics },
    ],
    (core, modules, extractors, events, [metrics]) =>
      createApp({
        core,
        options: httpOptions(config),
        modules,
        extractors,
        events,
        version: TESSERA_VERSION,
        ...(metrics && { observeRequest: metrics.observeRequest }),
      }),
  );

  for (const module of enabledModules(config.modules)) module.register(binder, config);
  return binder;
}

/** The CAS use cases on the bound ports, and the CasCore that hands them to the adapters. */
function bindUseCases(binder: Binder, config: Config): void {
  binder.resolved(KEYS.TicketIds, [KEYS.RandomSource], (random) => new TicketIdGenerator(random, config.server.nodeName));
  binder.constant(KEYS.TicketLifetimes, {
    tgtMaxTimeToLiveSeconds: config.tickets.tgt.maxTimeToLiveSeconds,
    tgtTimeToKillSeconds: config.tickets.tgt.timeToKillSeconds,
    stTimeToLiveSeconds: config.tickets.st.timeToLiveSeconds,
  });
  binder.resolved(
    KEYS.Authenticator,
    [{ all: KEYS.CredentialHandler }, KEYS.Clock, KEYS.EventSink, { all: KEYS.AuthenticationPolicy }, { all: KEYS.AuthenticationListener }],
    (handlers, clock, events, policies, listeners) => new Authenticator(handlers, clock, events, policies, listeners),
  );
  binder.resolved(KEYS.ServiceAccess, [KEYS.ServiceRegistry], (registry) => new ServiceAccess(registry));
  const issuing = [KEYS.Authenticator, KEYS.ServiceAccess, KEYS.TicketStore, KEYS.TicketIds, KEYS.Clock, KEYS.TicketLifetimes, KEYS.EventSink] as const;
  binder.resolved(KEYS.CreateTicketGrantingTicket, issuing, (...parts) => new CreateTicketGrantingTicket(...parts));
  binder.resolved(KEYS.GrantServiceTicket, issuing, (...parts) => new GrantServiceTicket(...parts));
  binder.resolved(
    KEYS.ValidateServiceTicket,
    [KEYS.TicketStore, KEYS.ServiceAccess, KEYS.EventSink, { all: KEYS.SessionListener }],
    (tickets, access, events, [sessionListener]) => new ValidateServiceTicket(tickets, access, events, sessionListener),
  );
  binder.resolved(
    KEYS.DestroyTicketGrantingTicket,
    [KEYS.TicketStore, KEYS.EventSink, { all: KEYS.SessionListener }],
    (tickets, events, [sessionListener]) => new DestroyTicketGrantingTicket(tickets, events, sessionListener),
  );
  binder.resolved(KEYS.TicketStatus, [KEYS.TicketStore], (tickets) => new TicketStatus(tickets));
  binder.resolved(KEYS.AuthenticateUser, [KEYS.Authenticator, KEYS.ServiceAccess, KEYS.EventSink], (authenticator, access, events) => new AuthenticateUser(authenticator, access, events));
  binder.resolved(
    KEYS.CasCore,
    [
      KEYS.Clock,
      KEYS.TicketIds,
      KEYS.TicketLifetimes,
      KEYS.Authenticator,
      KEYS.ServiceAccess,
      KEYS.CreateTicketGrantingTicket,
      KEYS.GrantServiceTicket,
      KEYS.ValidateServiceTicket,
      KEYS.TicketStatus,
      KEYS.DestroyTicketGrantingTicket,
      KEYS.AuthenticateUser,
    ],
    (clock, ids, lifetimes, authenticator, serviceAccess, createTicketGrantingTicket, grantServiceTicket, validateServiceTicket, ticketStatus, destroyTicketGrantingTicket, authenticateUser) => ({
      clock,
      ids,
      lifetimes,
      authenticator,
      serviceAccess,
      createTicketGrantingTicket,
      grantServiceTicket,
      validateServiceTicket,
      ticketStatus,
      destroyTicketGrantingTicket,
      authenticateUser,
    }),
  );
}

export function httpOptions(config: Config): HttpOptions {
  return {
    basePath: config.server.basePath,
    trustProxy: config.server.trustProxy,
    ...(config.server.publicUrl !== undefined && { publicUrl: config.server.publicUrl }),
    allowedHosts: config.server.allowedHosts ?? LOOPBACK_HOSTS,
    validationFailureStatus: config.protocol.validationFailureStatus,
    restRevision: config.rest.revision,
    maxBodyBytes: config.server.maxBodyBytes,
  };
}
