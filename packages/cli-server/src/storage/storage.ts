import type { Logger } from 'pino';
import type { Clock, LiveTgtCount, RandomSource, ReadinessCheck, RecordStores, RegisteredService, ServiceRegistry, TicketStore, UserDirectory } from '@tessera/core';
import type { FormTokenStore, ServiceSessionStore } from '@tessera/core/modules/login';
import type { OtpReplayStore } from '@tessera/core/modules/otp';
import type { RequestRateStore, ThrottleStore } from '@tessera/core/modules/throttle';
import type { MongoDatabase } from '@tessera/adapter-mongo';
import type { CentralSections } from '../config/central.js';
import type { Users } from '../config/users.js';
import type { ThrottleConfig } from '../modules/throttle/config.js';
import { openMemoryStorage } from './memory-storage.js';
import { openMongoStorage } from './mongo-storage.js';
import { openRedisStorage } from './redis-storage.js';

/** The store ports the container binds, from whichever adapter `storage.type` names. */
export interface StorePorts {
  readonly tickets: TicketStore;
  readonly registry: ServiceRegistry;
  readonly users: UserDirectory;
  /** Failure counters of the throttle module: per process in memory, shared by every node in Mongo and Redis. */
  readonly throttle: ThrottleStore;
  /** Token buckets of the throttle module's validation rate limit: per process in memory, shared by every node in Mongo and Redis. */
  readonly requestRates: RequestRateStore;
  /** Used one-time passwords of the otp module, likewise per process or shared. */
  readonly otpSteps: OtpReplayStore;
  /** Single-logout records and used login-form tokens of the login module, likewise per process or shared. */
  readonly serviceSessions: ServiceSessionStore;
  readonly formTokens: FormTokenStore;
  /** Namespaces of JSON records that modules open for their own stores: per process in memory, shared by every node in Mongo and Redis. */
  readonly records: RecordStores;
  /** The `storage` component of /health/ready. */
  readonly readiness: ReadinessCheck;
  /** The tessera_tgts_live gauge: this process's TGTs in memory, the cluster's in Mongo and Redis. */
  readonly liveTgts: LiveTgtCount;
}

export interface Storage {
  readonly ports: StorePorts;
  /** Stops background work and lets go of connections. */
  close(): Promise<void>;
}

/**
 * What the storage reads of the configuration: its own section and the configured users; and the
 * bound of the throttle module's in-memory stores, as long as the storage makes that module's stores.
 */
export interface StorageSettings {
  readonly storage: CentralSections['storage'];
  readonly users: Users;
  readonly throttle: ThrottleConfig;
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
