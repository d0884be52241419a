import type { Db, Document } from 'mongodb';
import type { Clock } from '@tessera/core';
import { MongoFormTokenStore } from './mongo-form-token-store.js';
import { MongoOtpReplayStore } from './mongo-otp-replay-store.js';
import { MongoRequestRateStore } from './mongo-request-rate-store.js';
import { MongoServiceRegistry } from './mongo-service-registry.js';
import { MongoServiceSessionStore } from './mongo-service-session-store.js';
import { MongoThrottleStore } from './mongo-throttle-store.js';
import { MongoTicketStore } from './mongo-ticket-store.js';
import { MongoUserDirectory } from './mongo-user-directory.js';
import { guardedWithin } from './unavailable.js';

/** What the stores need of a database: its collections, and `command` for the readiness ping. A real `Db`, or a fake one in tests. */
export type MongoDatabase = Pick<Db, 'collection' | 'command'>;

/** The collection names, each after an optional prefix (several deployments in one database). */
export const COLLECTIONS = {
  tickets: 'tickets',
  services: 'services',
  users: 'users',
  throttle: 'throttle',
  otpSteps: 'otp_steps',
  serviceSessions: 'service_sessions',
  formTokens: 'form_tokens',
  requestRates: 'request_rates',
  /** Every RecordStores namespace's records (mongo-record-store.ts). */
  records: 'records',
} as const;

export interface MongoStores {
  readonly tickets: MongoTicketStore;
  readonly registry: MongoServiceRegistry;
  readonly users: MongoUserDirectory;
  /** For the throttle module: failure counters shared by every node. */
  readonly throttle: MongoThrottleStore;
  /** For the throttle module: the validation rate limit's token buckets, shared by every node. */
  readonly requestRates: MongoRequestRateStore;
  /** For the otp module: the last accepted TOTP step per user, shared by every node. */
  readonly otpSteps: MongoOtpReplayStore;
  /** For the login module: who to tell when a TGT ends (single logout). */
  readonly serviceSessions: MongoServiceSessionStore;
  /** For the login module: used login-form tokens. */
  readonly formTokens: MongoFormTokenStore;
  /** Creates every index; safe to run at each start of each node. */
  createIndexes(): Promise<void>;
}

/** `storage.mongo.timeoutSeconds`'s default, for callers that give none. */
const DEFAULT_TIMEOUT_MS = 5000;

/** The stores over one database; each of their calls gives up after `timeoutMs` (StoreUnavailableError, 503). */
export function createMongoStores(database: MongoDatabase, clock: Clock, collectionPrefix = '', timeoutMs = DEFAULT_TIMEOUT_MS): MongoStores {
  const guarded = guardedWithin(timeoutMs);
  const collection = <T extends Document>(name: string) => database.collection<T>(collectionPrefix + name);
  const tickets = new MongoTicketStore(collection(COLLECTIONS.tickets), clock, guarded);
  const registry = new MongoServiceRegistry(collection(COLLECTIONS.services), guarded);
  const users = new MongoUserDirectory(collection(COLLECTIONS.users), guarded);
  const throttle = new MongoThrottleStore(collection(COLLECTIONS.throttle), guarded);
  const requestRates = new MongoRequestRateStore(collection(COLLECTIONS.requestRates), guarded);
  const otpSteps = new MongoOtpReplayStore(collection(COLLECTIONS.otpSteps), guarded);
  const serviceSessions = new MongoServiceSessionStore(collection(COLLECTIONS.serviceSessions), guarded);
  const formTokens = new MongoFormTokenStore(collection(COLLECTIONS.formTokens), guarded);
  return {
    tickets,
    registry,
    users,
    throttle,
    requestRates,
    otpSteps,
    serviceSessions,
    formTokens,
    async createIndexes() {
      await tickets.createIndexes();
      await users.createIndexes();
      await throttle.createIndexes();
      await requestRates.createIndexes();
      await serviceSessions.createIndexes();
      await formTokens.createIndexes();
    },
  };
}
