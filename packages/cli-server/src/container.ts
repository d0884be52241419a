import { Container } from 'inversify';
import type { Logger } from 'pino';
import { LOOPBACK_HOSTS, createApp, type HttpOptions } from '@tessera/adapter-koa';
import { Argon2PasswordHasher, ReadinessProbe, createCasCore, cryptoRandomSource, systemClock } from '@tessera/core';
import { AuditEventSink } from './audit/audit-event-sink.js';
import type { Config } from './config/schema.js';
import { Binder } from './di.js';
import { FanOutEventSink } from './events/fan-out-event-sink.js';
import { LoggingEventSink } from './logging.js';
import { registerMetrics } from './metrics/register-metrics.js';
import { enabledModules } from './modules/index.js';
import type { StorePorts } from './storage/storage.js';
import { KEYS } from './keys.js';
import { TESSERA_VERSION } from './version.js';

export interface CompositionInputs {
  readonly config: Config;
  readonly logger: Logger;
  /** The audit trail's logger; none when `audit.destination` is off. */
  readonly auditLogger?: Logger | undefined;
  /** The ticket store, service registry and user directory of the adapter `storage.type` names. */
  readonly stores: StorePorts;
}

/**
 * The composition root: every port bound to its adapter, then each enabled module adds its routes,
 * extractors and handlers. Nothing is built until something asks for it.
 */
export function buildContainer({ config, logger, auditLogger, stores }: CompositionInputs): Binder {
  const binder = new Binder(new Container());
  binder.constant(KEYS.Config, config);
  binder.constant(KEYS.Logger, logger);
  binder.constant(KEYS.Clock, systemClock);
  binder.constant(KEYS.RandomSource, cryptoRandomSource);

  binder.resolved(KEYS.EventSink, [{ all: KEYS.EventSinks }], (sinks) => new FanOutEventSink(sinks));
  binder.resolved(KEYS.EventSinks, [KEYS.Logger], (log) => new LoggingEventSink(log));
  if (config.metrics.enabled) registerMetrics(binder);
  if (auditLogger) binder.constant(KEYS.EventSinks, new AuditEventSink(auditLogger));
  binder.constant(KEYS.ReadinessCheck, stores.readiness);
  binder.resolved(KEYS.ReadinessProbe, [{ all: KEYS.ReadinessCheck }, KEYS.EventSink], (checks, events) => new ReadinessProbe(checks, config.health.timeoutMs, events));
  binder.constant(KEYS.LiveTgtCount, stores.liveTgts);
  binder.constant(KEYS.TicketStore, stores.tickets);
  binder.constant(KEYS.ServiceRegistry, stores.registry);
  binder.constant(KEYS.UserDirectory, stores.users);
  binder.constant(KEYS.ThrottleStore, stores.throttle);
  binder.constant(KEYS.RequestRateStore, stores.requestRates);
  binder.constant(KEYS.OtpReplayStore, stores.otpSteps);
  binder.constant(KEYS.ServiceSessionStore, stores.serviceSessions);
  binder.constant(KEYS.FormTokenStore, stores.formTokens);
  // The CLI's `services import` saves for real only where the registry outlives the process.
  binder.constant(KEYS.ServiceRegistryOutlivesProcess, config.storage.type !== 'memory');
  binder.resolved(KEYS.PasswordHasher, [], () => new Argon2PasswordHasher());

  binder.resolved(
    KEYS.CasCore,
    [KEYS.TicketStore, KEYS.ServiceRegistry, { all: KEYS.CredentialHandler }, { all: KEYS.AuthenticationPolicy }, KEYS.Clock, KEYS.RandomSource, KEYS.EventSink, { all: KEYS.SessionListener }],
    (tickets, registry, handlers, policies, clock, random, events, [sessionListener]) =>
      createCasCore({
        tickets,
        registry,
        handlers,
        policies,
        clock,
        random,
        events,
        ...(sessionListener && { sessionListener }),
        nodeName: config.server.nodeName,
        lifetimes: {
          tgtMaxTimeToLiveSeconds: config.tickets.tgt.maxTimeToLiveSeconds,
          tgtTimeToKillSeconds: config.tickets.tgt.timeToKillSeconds,
          stTimeToLiveSeconds: config.tickets.st.timeToLiveSeconds,
        },
      }),
  );
  binder.resolved(
    KEYS.HttpApp,
    [
      KEYS.CasCore,
      { all: KEYS.HttpModule },
      { all: KEYS.CredentialExtractor },
      KEYS.EventSink,
      { all: KEYS.JwtTickets },
      { all: KEYS.AuthenticationThrottle },
      { all: KEYS.RequestRateLimit },
      { all: KEYS.Metrics },
      { all: KEYS.ProxyGranting },
    ],
    (core, modules, extractors, events, [tokens], [throttle], [validationRateLimit], [metrics], [proxyGranting]) =>
      createApp({
        core,
        options: httpOptions(config),
        modules,
        extractors,
        events,
        version: TESSERA_VERSION,
        ...(tokens && { tokens }),
        ...(throttle && { throttle }),
        ...(validationRateLimit && { validationRateLimit }),
        ...(metrics && { observeRequest: metrics.observeRequest }),
        ...(proxyGranting && { proxyGranting }),
      }),
  );

  for (const module of enabledModules(config.modules)) module.register(binder, config);
  return binder;
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
