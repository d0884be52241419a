import type { Logger } from 'pino';
import type {
  AuthenticateUser,
  Authenticator,
  CreateTicketGrantingTicket,
  DestroyTicketGrantingTicket,
  GrantServiceTicket,
  ServiceAccess,
  TicketIdGenerator,
  TicketLifetimes,
  TicketStatus,
  ValidateServiceTicket,
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
  ServicePolicies,
  ServiceRegistry,
  SessionListener,
  TicketStore,
  UserDirectory,
} from '@tessera/core';
import type { CredentialExtractor, HttpModule, ServiceCodec } from '@tessera/adapter-koa';
import type { RequestListener } from 'node:http';
import type { Config } from './config/schema.js';
import type { TesseraMetrics } from './metrics/tessera-metrics.js';
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
  Config: key<Config>('Config'),
  Logger: key<Logger>('Logger'),
  Clock: key<Clock>('Clock'),
  RandomSource: key<RandomSource>('RandomSource'),
  /** The one sink everything reports to: it forwards each event (and its request origin) to every EventSinks binding. */
  EventSink: key<EventSink>('EventSink'),
  /** Multi-bound: where events go (the application log, metrics, the audit trail); each is isolated from the others. */
  EventSinks: key<EventSink>('EventSinks'),
  TicketStore: key<TicketStore>('TicketStore'),
  ServiceRegistry: key<ServiceRegistry>('ServiceRegistry'),
  /** Whether what is saved to the ServiceRegistry is still there for the next process (memory: no). */
  ServiceRegistryOutlivesProcess: key<boolean>('ServiceRegistryOutlivesProcess'),
  UserDirectory: key<UserDirectory>('UserDirectory'),
  /** The attribute release policies and username providers, by class: the built-in ones and every module's. */
  ServicePolicies: key<ServicePolicies>('ServicePolicies'),
  /** The service definitions' wire formats, with the same policy classes. */
  ServiceCodec: key<ServiceCodec>('ServiceCodec'),
  PasswordHasher: key<PasswordHasher>('PasswordHasher'),
  /** The adapter `storage.type` names, opened by `Binder.open()` and closed by `Binder.close()`; every store port comes from it. */
  Storage: key<Storage>('Storage'),
  TicketIds: key<TicketIdGenerator>('TicketIds'),
  TicketLifetimes: key<TicketLifetimes>('TicketLifetimes'),
  Authenticator: key<Authenticator>('Authenticator'),
  ServiceAccess: key<ServiceAccess>('ServiceAccess'),
  CreateTicketGrantingTicket: key<CreateTicketGrantingTicket>('CreateTicketGrantingTicket'),
  GrantServiceTicket: key<GrantServiceTicket>('GrantServiceTicket'),
  ValidateServiceTicket: key<ValidateServiceTicket>('ValidateServiceTicket'),
  TicketStatus: key<TicketStatus>('TicketStatus'),
  DestroyTicketGrantingTicket: key<DestroyTicketGrantingTicket>('DestroyTicketGrantingTicket'),
  AuthenticateUser: key<AuthenticateUser>('AuthenticateUser'),
  /** Every use case at once, as the adapters take them. */
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
  /** Bound only by the login module (single logout): zero or one, told of every grant and logout. */
  SessionListener: key<SessionListener>('SessionListener'),
  /** Multi-bound: work a node does on its own time, started once it listens and stopped before the storage closes. */
  BackgroundJob: key<BackgroundJob>('BackgroundJob'),
} as const;
