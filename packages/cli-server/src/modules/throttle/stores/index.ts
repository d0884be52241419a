import type { RequestRateStore, ThrottleStore } from '@tessera/core/modules/throttle';
import type { ModuleStoreFactories } from '../../../storage/module-stores.js';
import type { ThrottleConfig } from '../config.js';
import { MemoryRequestRateStore } from './memory-request-rate-store.js';
import { MemoryThrottleStore } from './memory-throttle-store.js';
import { MongoRequestRateStore, type RequestRateDocument } from './mongo-request-rate-store.js';
import { MongoThrottleStore, type ThrottleDocument } from './mongo-throttle-store.js';
import { RedisRequestRateStore } from './redis-request-rate-store.js';
import { RedisThrottleStore } from './redis-throttle-store.js';

/** The throttle module's two stores, on whichever storage `storage.type` names. */
export interface ThrottleStores {
  /** Failure counters: per process in memory, shared by every node in Mongo and Redis. */
  readonly failures: ThrottleStore;
  /** Token buckets of the request-rate limits, likewise. */
  readonly requestRates: RequestRateStore;
}

/** The Mongo collections, after `storage.mongo.collectionPrefix`, named as before these stores moved into the module. */
export const THROTTLE_COLLECTIONS = { failures: 'throttle', requestRates: 'request_rates' } as const;

/**
 * Specialised stores rather than records (RecordStores): a failure count and a token bucket are hot
 * counters, which a compare-and-set loop serves poorly under contention, where one atomic step per
 * call (a Lua script, a Mongo update) does not. In memory each holds at most `throttle.memory.maxKeys` keys.
 */
export function throttleStores(settings: ThrottleConfig): ModuleStoreFactories<ThrottleStores> {
  const { maxKeys } = settings.memory;
  return {
    memory: () => ({ failures: new MemoryThrottleStore({ maxKeys }), requestRates: new MemoryRequestRateStore(maxKeys) }),
    redis: ({ client, keyPrefix }) => ({ failures: new RedisThrottleStore(client, keyPrefix), requestRates: new RedisRequestRateStore(client, keyPrefix) }),
    mongo: async ({ database, collectionPrefix, guarded }) => {
      const failures = new MongoThrottleStore(database.collection<ThrottleDocument>(collectionPrefix + THROTTLE_COLLECTIONS.failures), guarded);
      const requestRates = new MongoRequestRateStore(database.collection<RequestRateDocument>(collectionPrefix + THROTTLE_COLLECTIONS.requestRates), guarded);
      await failures.createIndexes();
      await requestRates.createIndexes();
      return { failures, requestRates };
    },
  };
}
