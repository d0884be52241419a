import { Container } from 'inversify';
import type { Logger } from 'pino';
import { LOOPBACK_HOSTS, createApp, withServiceTemplates, type HttpOptions, type ServiceTemplates } from '@tessera/adapter-koa';
import type { MongoDatabase } from '@tessera/adapter-mongo';
import { Argon2PasswordHasher, ReadinessProbe, createCasCore, cryptoRandomSource, systemClock, type Clock, type RegisteredService, type SecondFactorProvider, type SessionListener } from '@tessera/core';
import { AuditEventSink } from './audit/audit-event-sink.js';
import { registerAuthentication } from './authentication/authentication.js';
import type { Config } from './config/schema.js';
import { strictServiceCodec } from './config/service-warnings.js';
import { Binder } from './di.js';
import { FanOutEventSink } from './events/fan-out-event-sink.js';
import { bindServerLogs, bindServing, type ServeOptions } from './lifecycle.js';
import { LoggingEventSink } from './logging.js';
import { registerMetrics } from './metrics/register-metrics.js';
import { credentialKinds, moduleEvents, moduleServiceTypes, registerEnabledModules } from './modules/index.js';
import { samlAuthenticationMethods } from './credential-kinds.js';
import { serverPolicyRegistrations, serverServicePolicies } from './service-policies.js';
import { openStorage } from './storage/storage.js';
import { KEYS } from './keys.js';
import { TESSERA_VERSION } from './version.js';

interface CommonInputs {
  readonly config: Config;
  /** The configured services (configuration, services directory, demo), ids assigned; none when omitted. */
  readonly services?: readonly RegisteredService[];
  /** The service templates (serviceTemplatesDirectory), applied to every definition the server parses (POST /v1/services); none when omitted. */
  readonly templates?: ServiceTemplates | undefined;
  /** Tests only: a stand-in MongoDB database for `storage.type: mongo`, used instead of connecting. */
  readonly mongoDatabase?: MongoDatabase | undefined;
  /** Tests only: the time every part reads instead of the system's, for end-to-end tests to move. */
  readonly clock?: Clock | undefined;
}

/** A container that serves: its own log and audit trail, the storage, the listeners and the background jobs, all resources. */
export interface ServingInputs extends CommonInputs {
  readonly serve: ServeOptions;
}

/** A container that serves nothing (tests, `config check`, `services`): the caller's logger, no audit trail, the storage its only resource. */
export interface ComposingInputs extends CommonInputs {
  readonly logger: Logger;
}

export type CompositionInputs = ServingInputs | ComposingInputs;

/**
 * The composition root: every port bound to its adapter, the use cases, the HTTP app, the central
 * authentication, then each enabled module adds its routes, extractors and handlers. Nothing is built until something asks for
 * it. `open()` opens the resources in order: for a container that serves, the log and the audit
 * trail first, then the storage (connecting to Mongo or Redis), what modules add, the listeners and
 * the background jobs; `close()` closes them in reverse.
 */
export function buildContainer(inputs: CompositionInputs): Binder {
  const { config, services = [], mongoDatabase, clock = systemClock } = inputs;
  const binder = new Binder(new Container());
  if ('serve' in inputs) bindServerLogs(binder, config, inputs.serve);
  else binder.constant(KEYS.Logger, inputs.logger);
  binder.constant(KEYS.Clock, clock);
  binder.constant(KEYS.RandomSource, cryptoRandomSource);

  binder.resolved(KEYS.EventSink, [{ all: KEYS.EventSinks }], (sinks) => new FanOutEventSink(sinks));
  binder.constant(KEYS.ModuleEvents, moduleEvents());
  binder.resolved(KEYS.EventSinks, [KEYS.Logger, KEYS.ModuleEvents], (log, modules) => new LoggingEventSink(log, modules));
  if (config.metrics.enabled) registerMetrics(binder);
  if ('serve' in inputs && config.audit.destination !== 'off') binder.resolved(KEYS.EventSinks, [KEYS.AuditStream, KEYS.ModuleEvents], (audit, modules) => new AuditEventSink(audit.logger, modules));
  binder.resource(
    KEYS.Storage,
    [KEYS.Clock, KEYS.RandomSource, KEYS.Logger],
    // A server waits for a Redis that cannot be reached yet; a CLI command fails at once.
    (clock, random, logger) => openStorage({ config, services, clock, random, logger, serveBeforeStore: 'serve' in inputs, ...(mongoDatabase !== undefined && { mongoDatabase }) }),
    (storage) => storage.close(),
  );
  binder.resolved(KEYS.ReadinessCheck, [KEYS.Storage], (storage) => storage.ports.readiness);
  binder.resolved(KEYS.ReadinessProbe, [{ all: KEYS.ReadinessCheck }, KEYS.EventSink], (checks, events) => new ReadinessProbe(checks, config.health.timeoutMs, events));
  binder.resolved(KEYS.LiveTgtCount, [KEYS.Storage], (storage) => storage.ports.liveTgts);
  binder.resolved(KEYS.TicketStore, [KEYS.Storage], (storage) => storage.ports.tickets);
  binder.resolved(KEYS.ServiceRegistry, [KEYS.Storage], (storage) => storage.ports.registry);
  binder.resolved(KEYS.UserDirectory, [KEYS.Storage], (storage) => storage.ports.users);
  binder.resolved(KEYS.RecordStores, [KEYS.Storage], (storage) => storage.ports.records);
  binder.resolved(KEYS.StorageConnection, [KEYS.Storage], (storage) => storage.connection);
  // The CLI's `services import` saves for real only where the registry outlives the process.
  binder.constant(KEYS.ServiceRegistryOutlivesProcess, config.storage.type !== 'memory');
  binder.resolved(KEYS.PasswordHasher, [], () => new Argon2PasswordHasher());
  const servicePolicies = serverServicePolicies();
  binder.constant(KEYS.ServicePolicies, servicePolicies.policies);
  const codec = inputs.templates ? withServiceTemplates(servicePolicies.codec, inputs.templates) : servicePolicies.codec;
  binder.constant(KEYS.ServiceCodec, config.strictServices ? strictServiceCodec(codec) : codec);
  binder.constant(KEYS.ServiceTypes, moduleServiceTypes(config.modules));

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

  // Authentication is every deployment's, its extractor and handlers bound before any module's.
  registerAuthentication(binder, config);
  registerEnabledModules(binder, config);
  if ('serve' in inputs) bindServing(binder, config);
  return binder;
}

/** The CAS use cases on the bound ports (core's factory, as testkit's `testCore`), and the CasCore that hands them to the adapters. */
function bindUseCases(binder: Binder, config: Config): void {
  const settings = {
    nodeName: config.server.nodeName,
    lifetimes: {
      tgtMaxTimeToLiveSeconds: config.tickets.tgt.maxTimeToLiveSeconds,
      tgtTimeToKillSeconds: config.tickets.tgt.timeToKillSeconds,
      stTimeToLiveSeconds: config.tickets.st.timeToLiveSeconds,
    },
  };
  binder.resolved(
    KEYS.CasCore,
    [
      KEYS.TicketStore,
      KEYS.ServiceRegistry,
      { all: KEYS.CredentialHandler },
      { all: KEYS.AuthenticationPolicy },
      { all: KEYS.AuthenticationListener },
      KEYS.EventSink,
      KEYS.Clock,
      KEYS.RandomSource,
      { all: KEYS.SessionListener },
      KEYS.ServicePolicies,
      { all: KEYS.SecondFactorProvider },
      { all: KEYS.RelyingPartyResolver },
      KEYS.ServiceTypes,
      { all: KEYS.AdmissionRule },
    ],
    (tickets, registry, handlers, policies, authenticationListeners, events, clock, random, sessionListeners, servicePolicies, secondFactors, relyingPartyResolvers, serviceTypes, admissionRules) =>
      createCasCore(
        {
          tickets,
          registry,
          handlers,
          policies,
          authenticationListeners,
          events,
          clock,
          random,
          sessionListener: sessionListenersInOrder(sessionListeners),
          servicePolicies,
          secondFactors: declaredSecondFactors(secondFactors),
          relyingPartyResolvers,
          serviceTypes,
          admissionRules,
        },
        settings,
      ),
  );
}

/**
 * The modules' second-factor providers, each one a module declares (`secondFactors`): one no module
 * declares could never be named by a service definition, which the codec would refuse.
 */
function declaredSecondFactors(providers: readonly SecondFactorProvider[]): readonly SecondFactorProvider[] {
  const declared = serverPolicyRegistrations().secondFactors;
  const undeclared = providers.find((provider) => !declared.some(({ id }) => id === provider.id));
  if (undeclared !== undefined) throw new Error(`the second-factor provider ${undeclared.id} is bound, but no module declares it (secondFactors)`);
  return providers;
}

/** The modules' session listeners as one, each told in the order the modules are listed (none: undefined). */
function sessionListenersInOrder(listeners: readonly SessionListener[]): SessionListener | undefined {
  if (listeners.length <= 1) return listeners[0];
  return {
    async started(tgt, origin) {
      for (const listener of listeners) await listener.started?.(tgt, origin);
    },
    async validated(tgt, ticket, service, origin) {
      for (const listener of listeners) await listener.validated(tgt, ticket, service, origin);
    },
    async ended(tgtId, origin) {
      for (const listener of listeners) await listener.ended(tgtId, origin);
    },
  };
}

export function httpOptions(config: Config): HttpOptions {
  return {
    basePath: config.server.basePath,
    trustProxy: config.server.trustProxy,
    ...(config.server.publicUrl !== undefined && { publicUrl: config.server.publicUrl }),
    allowedHosts: config.server.allowedHosts ?? LOOPBACK_HOSTS,
    validationFailureStatus: config.protocol.validationFailureStatus,
    maxBodyBytes: config.server.maxBodyBytes,
    samlAuthenticationMethods: samlAuthenticationMethods(credentialKinds(config)),
  };
}
