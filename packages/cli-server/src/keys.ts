import type { Logger } from 'pino';
import type {
  AuthenticationListener,
  AuthenticationPolicy,
  CasCore,
  Clock,
  CredentialHandler,
  EventSink,
  LiveTgtCount,
  PasswordHasher,
  RandomSource,
  ReadinessCheck,
  ReadinessProbe,
  RecordStores,
  RelyingPartyResolver,
  AdmissionRule,
  ServicePolicies,
  ServiceRegistry,
  ServiceTypes,
  SecondFactorProvider,
  SessionListener,
  TicketStore,
  UserDirectory,
} from '@tessera/core';
import type { Branding, BrowserSessions, CredentialExtractor, HttpModule, ServiceCodec } from '@tessera/adapter-koa';
import type { RequestListener } from 'node:http';
import type { AdminEndpoints } from './admin/admin-endpoints.js';
import type { AuditStream } from './audit/audit-stream.js';
import type { LifecycleLines } from './lifecycle-lines.js';
import type { Listening } from './listen.js';
import type { LogDestination } from './log-destination.js';
import type { TesseraMetrics } from './metrics/tessera-metrics.js';
import type { ModuleEvents } from './events/module-events.js';
import type { StorageConnection } from './storage/module-stores.js';
import type { Storage } from './storage/storage.js';

/** What the composition root needs of the web app (a Koa app): a request listener for node:http. */
export interface HttpApp {
  callback(): RequestListener;
}

/** Work of a module beside requests (the login module's expiry check). */
export interface BackgroundJob {
  start(): void;
  stop(): Promise<void>;
}

declare const keyType: unique symbol;

/** A container key that remembers the type bound to it, so bindings and lookups are type-checked. */
export type Key<T> = symbol & { readonly [keyType]?: T };

export function key<T>(description: string): Key<T> {
  return Symbol(description);
}

/** Every key of the container: one leaf file, so modules and the root agree without import cycles. */
export const KEYS = {
  /** A serving container's first resource: stdout (or a test's stream), closed last, once every line is written. */
  LogDestination: key<LogDestination>('LogDestination'),
  Logger: key<Logger>('Logger'),
  /** A serving container's `audit.destination` (unbound when `off`): opened after the log, closed before it. */
  AuditStream: key<AuditStream>('AuditStream'),
  /** A serving container's ready, stopping and stopped lines; "stopped" is written once everything but the log and the audit trail is closed. */
  LifecycleLines: key<LifecycleLines>('LifecycleLines'),
  Clock: key<Clock>('Clock'),
  RandomSource: key<RandomSource>('RandomSource'),
  /** The one sink everything reports to: it forwards each event (and its request origin) to every EventSinks binding. */
  EventSink: key<EventSink>('EventSink'),
  /** Multi-bound: where events go (the application log, metrics, the audit trail); each is isolated from the others. */
  EventSinks: key<EventSink>('EventSinks'),
  /** The modules' declared events (level, audit record, counters), which the log, audit and metrics sinks consult. */
  ModuleEvents: key<ModuleEvents>('ModuleEvents'),
  TicketStore: key<TicketStore>('TicketStore'),
  ServiceRegistry: key<ServiceRegistry>('ServiceRegistry'),
  /** Whether what is saved to the ServiceRegistry is still there for the next process (memory: no). */
  ServiceRegistryOutlivesProcess: key<boolean>('ServiceRegistryOutlivesProcess'),
  UserDirectory: key<UserDirectory>('UserDirectory'),
  /** Where a module's stores live: it opens its namespaces of records here (docs/adding-a-module.md §5), on whichever storage `storage.type` names. */
  RecordStores: key<RecordStores>('RecordStores'),
  /** The storage's kind and connection, for a module's specialised store of its own (storage/module-stores.ts: `openModuleStore`). */
  StorageConnection: key<StorageConnection>('StorageConnection'),
  /** The attribute release policies and username providers, by class: the built-in ones and every module's. */
  ServicePolicies: key<ServicePolicies>('ServicePolicies'),
  /** The service definitions' wire formats, with the same policy classes. */
  ServiceCodec: key<ServiceCodec>('ServiceCodec'),
  /** The service classes every listed module brings, those of the enabled ones served: which services CAS service URLs find. */
  ServiceTypes: key<ServiceTypes>('ServiceTypes'),
  PasswordHasher: key<PasswordHasher>('PasswordHasher'),
  /** The adapter `storage.type` names, opened by `Binder.open()` and closed by `Binder.close()`; every store port comes from it. */
  Storage: key<Storage>('Storage'),
  /** Every use case at once, as the adapters take them (core's `createCasCore`). */
  CasCore: key<CasCore>('CasCore'),
  /** Multi-bound: every enabled module adds its own. */
  CredentialHandler: key<CredentialHandler>('CredentialHandler'),
  CredentialExtractor: key<CredentialExtractor>('CredentialExtractor'),
  /** Multi-bound: rules over a whole authentication (the otp module's). */
  AuthenticationPolicy: key<AuthenticationPolicy>('AuthenticationPolicy'),
  /** Multi-bound: told of every successful authentication (the throttle module's, which forgets the failures of whom it proved). */
  AuthenticationListener: key<AuthenticationListener>('AuthenticationListener'),
  /** Multi-bound: every enabled module's routes and its contributions to the others' (adapter-koa's extension points). */
  HttpModule: key<HttpModule>('HttpModule'),
  HttpApp: key<HttpApp>('HttpApp'),
  /** Multi-bound: the components of /health/ready (the storage's, the ldap handler's). */
  ReadinessCheck: key<ReadinessCheck>('ReadinessCheck'),
  ReadinessProbe: key<ReadinessProbe>('ReadinessProbe'),
  LiveTgtCount: key<LiveTgtCount>('LiveTgtCount'),
  /** Bound only with `metrics.enabled`: zero or one. */
  Metrics: key<TesseraMetrics>('Metrics'),
  /** Multi-bound by modules (the login module's single logout, the oidc module's): each told of every validation and logout. */
  SessionListener: key<SessionListener>('SessionListener'),
  /**
   * Multi-bound by protocol modules: their own URLs that stand for a relying party (the oidc module's
   * login callback stands for the client it logs in), asked before the registry's serviceIds.
   */
  RelyingPartyResolver: key<RelyingPartyResolver>('RelyingPartyResolver'),
  /** Multi-bound by modules that rule which logins may reach a service (the delegation module's delegatedAuthenticationPolicy). */
  AdmissionRule: key<AdmissionRule>('AdmissionRule'),
  /** Multi-bound by the modules that bring a second factor, each of an id its module declares (`secondFactors`): what services' `multifactorPolicy` ask. */
  SecondFactorProvider: key<SecondFactorProvider>('SecondFactorProvider'),
  /**
   * Bound by the module that keeps the browser's login session (zero or one): its session cookie, for
   * other modules' routes that end the session or read it (an OpenID Connect logout).
   */
  BrowserSessions: key<BrowserSessions>('BrowserSessions'),
  /** Bound by the module whose pages set the look (zero or one): the operator's branding, for other modules' pages in the same style. */
  PageBranding: key<Branding>('PageBranding'),
  /** Multi-bound: work a node does on its own time, started once it listens and stopped before the storage closes. */
  BackgroundJob: key<BackgroundJob>('BackgroundJob'),
  /** A serving container's admin endpoints, in front of the main app or on the admin listener. */
  AdminEndpoints: key<AdminEndpoints>('AdminEndpoints'),
  /** A serving container's listener of `admin.port`, bound only when that is set: it listens before the main one and closes after it. */
  AdminListener: key<Listening>('AdminListener'),
  /** A serving container's listener of `server.*`. */
  MainListener: key<Listening>('MainListener'),
  /** A serving container's background jobs, started once the listeners listen and stopped first. */
  RunningJobs: key<readonly BackgroundJob[]>('RunningJobs'),
} as const;
