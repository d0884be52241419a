import type { Logger } from 'pino';
import type { Clock, LiveTgtCount, RandomSource, ReadinessCheck, RecordStores, RegisteredService, ServiceRegistry, TicketStore, UserDirectory } from '@tessera/core';
import type { MongoDatabase } from '@tessera/adapter-mongo';
import type { CentralSections } from '../config/central.js';
import type { Users } from '../config/users.js';
import { openMemoryStorage } from './memory-storage.js';
import type { StorageConnection } from './module-stores.js';
import { openMongoStorage } from './mongo-storage.js';
import { openRedisStorage } from './redis-storage.js';

/** The store ports the container binds, from whichever adapter `storage.type` names. */
export interface StorePorts {
  readonly tickets: TicketStore;
  readonly registry: ServiceRegistry;
  readonly users: UserDirectory;
  /** Namespaces of JSON records that modules open for their own stores: per process in memory, shared by every node in Mongo and Redis. */
  readonly records: RecordStores;
  /** The `storage` component of /health/ready. */
  readonly readiness: ReadinessCheck;
  /** The tessera_tgts_live gauge: this process's TGTs in memory, the cluster's in Mongo and Redis. */
  readonly liveTgts: LiveTgtCount;
}

export interface Storage {
  readonly ports: StorePorts;
  /** For the modules' specialised stores of their own: what kind of storage this is, and its connection. */
  readonly connection: StorageConnection;
  /** Stops background work and lets go of connections. */
  close(): Promise<void>;
}

/** What the storage reads of the configuration: its own section and the configured users. */
export interface StorageSettings {
  readonly storage: CentralSections['storage'];
  readonly users: Users;
}

export interface StorageInputs {
  readonly config: StorageSettings;
  /** The configured services (configuration, services directory, demo), ids assigned. */
  readonly services: readonly RegisteredService[];
  readonly clock: Clock;
  /** For the versions of shared records (Mongo, Redis). */
  readonly random: RandomSource;
  readonly logger: Logger;
  /**
   * The server's start: a Redis that cannot be reached yet is waited for while serving (unready, 503)
   * rather than a failed start, as an outage later would be. CLI commands leave it off and fail.
   */
  readonly serveBeforeStore?: boolean;
  /** Tests only: a stand-in for the MongoDB database, used instead of connecting to `storage.mongo.uri`. */
  readonly mongoDatabase?: MongoDatabase;
}

/** Memory storage opens at once, so a container on it resolves without `open()` (tests, `config check`). */
export function openStorage(inputs: StorageInputs): Storage | Promise<Storage> {
  switch (inputs.config.storage.type) {
    case 'mongo':
      return openMongoStorage(inputs);
    case 'redis':
      return openRedisStorage(inputs);
    default:
      return openMemoryStorage(inputs);
  }
}
