import type { Logger } from 'pino';
import type {
  AuthenticationPolicy,
  AuthenticationThrottle,
  CasCore,
  Clock,
  CredentialHandler,
  EventSink,
  JwtTickets,
  OtpReplayStore,
  PasswordHasher,
  RandomSource,
  RequestRateLimit,
  ServiceRegistry,
  ThrottleStore,
  TicketStore,
  UserDirectory,
} from '@tessera/core';
import type { CredentialExtractor, HttpModule } from '@tessera/adapter-koa';
import type { RequestListener } from 'node:http';
import type { Config } from './config/schema.js';

/** What the composition root needs of the web app (a Koa app): a request listener for node:http. */
export interface HttpApp {
  callback(): RequestListener;
}

declare const tokenType: unique symbol;

/** A container key that remembers the type bound to it, so bindings and lookups are type-checked. */
export type Token<T> = symbol & { readonly [tokenType]?: T };

function token<T>(description: string): Token<T> {
  return Symbol(description);
}

/** Every key of the container: one leaf file, so modules and the root agree without import cycles. */
export const TOKENS = {
  Config: token<Config>('Config'),
  Logger: token<Logger>('Logger'),
  Clock: token<Clock>('Clock'),
  RandomSource: token<RandomSource>('RandomSource'),
  /** The one sink every use case reports to: it hands each event to every EventListener. */
  EventSink: token<EventSink>('EventSink'),
  /** Multi-bound: what receives every domain event (the application log, the audit trail). */
  EventListener: token<EventSink>('EventListener'),
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
  /** Bound only with the throttle module and a validation request rate: zero or one. */
  RequestRateLimit: token<RequestRateLimit>('RequestRateLimit'),
  HttpApp: token<HttpApp>('HttpApp'),
} as const;
