import type { Logger } from 'pino';
import type {
  AuthenticationPolicy,
  AuthenticationThrottle,
  CasCore,
  Clock,
  CredentialHandler,
  EventSink,
  FormTokenStore,
  IssueProxyGrantingTicket,
  JwtTickets,
  LiveTgtCount,
  OtpReplayStore,
  PasswordHasher,
  RandomSource,
  ReadinessCheck,
  ReadinessProbe,
  RequestRateLimit,
  RequestRateStore,
  ServiceRegistry,
  ServiceSessionStore,
  SessionListener,
  ThrottleStore,
  TicketStore,
  UserDirectory,
} from '@tessera/core';
import type { CredentialExtractor, HttpModule } from '@tessera/adapter-koa';
import type { RequestListener } from 'node:http';
import type { Config } from './config/schema.js';
import type { TesseraMetrics } from './metrics/tessera-metrics.js';

/** What the composition root needs of the web app (a Koa app): a request listener for node:http. */
export interface HttpApp {
  callback(): RequestListener;
}

/** Work of a module beside requests (the login module's expiry check). */
export interface BackgroundJob {
  start(): void;
  stop(): Promise<void>;
}

declare const tokenType: unique symbol;

/** A container key that remembers the type bound to it, so bindings and lookups are type-checked. */
export type Token<T> = symbol & { readonly [tokenType]?: T };

export function token<T>(description: string): Token<T> {
  return Symbol(description);
}

/** Every key of the container: one leaf file, so modules and the root agree without import cycles. */
export const TOKENS = {
  Config: token<Config>('Config'),
  Logger: token<Logger>('Logger'),
  Clock: token<Clock>('Clock'),
  RandomSource: token<RandomSource>('RandomSource'),
  /** The one sink everything reports to: it forwards each event (and its request origin) to every EventSinks binding. */
  EventSink: token<EventSink>('EventSink'),
  /** Multi-bound: where events go (the application log, metrics, the audit trail); each is isolated from the others. */
  EventSinks: token<EventSink>('EventSinks'),
  TicketStore: token<TicketStore>('TicketStore'),
  ServiceRegistry: token<ServiceRegistry>('ServiceRegistry'),
  /** Whether what is saved to the ServiceRegistry is still there for the next process (memory: no). */
  ServiceRegistryOutlivesProcess: token<boolean>('ServiceRegistryOutlivesProcess'),
  UserDirectory: token<UserDirectory>('UserDirectory'),
  PasswordHasher: token<PasswordHasher>('PasswordHasher'),
  CasCore: token<CasCore>('CasCore'),
  /** Multi-bound: every enabled module adds its own. */
  CredentialHandler: token<CredentialHandler>('CredentialHandler'),
  CredentialExtractor: token<CredentialExtractor>('CredentialExtractor'),
  /** Multi-bound: rules over a whole authentication (the otp module's). */
  AuthenticationPolicy: token<AuthenticationPolicy>('AuthenticationPolicy'),
  OtpReplayStore: token<OtpReplayStore>('OtpReplayStore'),
  HttpModule: token<HttpModule>('HttpModule'),
  /** Bound only by the tokens module: zero or one. */
  JwtTickets: token<JwtTickets>('JwtTickets'),
  /** Bound only by the throttle module: zero or one. */
  AuthenticationThrottle: token<AuthenticationThrottle>('AuthenticationThrottle'),
  ThrottleStore: token<ThrottleStore>('ThrottleStore'),
  RequestRateStore: token<RequestRateStore>('RequestRateStore'),
  /** Bound only with the throttle module and a validation request rate: zero or one. */
  RequestRateLimit: token<RequestRateLimit>('RequestRateLimit'),
  HttpApp: token<HttpApp>('HttpApp'),
  /** Multi-bound: the components of /health/ready (the storage's, the ldap handler's). */
  ReadinessCheck: token<ReadinessCheck>('ReadinessCheck'),
  ReadinessProbe: token<ReadinessProbe>('ReadinessProbe'),
  LiveTgtCount: token<LiveTgtCount>('LiveTgtCount'),
  /** Bound only with `metrics.enabled`: zero or one. */
  Metrics: token<TesseraMetrics>('Metrics'),
  /** The login module's single-logout records and used form tokens, from the storage. */
  ServiceSessionStore: token<ServiceSessionStore>('ServiceSessionStore'),
  FormTokenStore: token<FormTokenStore>('FormTokenStore'),
  /** Bound only by the login module (single logout): zero or one, told of every grant and logout. */
  SessionListener: token<SessionListener>('SessionListener'),
  /** Bound only by the proxy module: zero or one, a validation's `pgtUrl` goes to it. */
  ProxyGranting: token<IssueProxyGrantingTicket>('ProxyGranting'),
  /** Multi-bound: work a node does on its own time, started once it listens and stopped before the storage closes. */
  BackgroundJob: token<BackgroundJob>('BackgroundJob'),
} as const;
