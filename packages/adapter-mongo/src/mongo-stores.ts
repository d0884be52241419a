import type { Db, Document } from 'mongodb';
import type { Clock } from '@tessera/core';
import { MongoServiceRegistry } from './mongo-service-registry.js';
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
  /** Every RecordStores namespace's records (mongo-record-store.ts). */
  records: 'records',
} as const;

export interface MongoStores {
  readonly tickets: MongoTicketStore;
  readonly registry: MongoServiceRegistry;
  readonly users: MongoUserDirectory;
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
  return {
    tickets,
    registry,
    users,
    async createIndexes() {
      await tickets.createIndexes();
      await users.createIndexes();
    },
  };
}
