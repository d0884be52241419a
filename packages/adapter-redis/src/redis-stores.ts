import type { Clock } from '@tessera/core';
import { RedisKeys } from './keys.js';
import { RedisReadinessCheck } from './redis-readiness.js';
import { RedisServiceRegistry } from './redis-service-registry.js';
import { RedisTicketStore } from './redis-ticket-store.js';
import { RedisUserDirectory } from './redis-user-directory.js';
import type { RedisClient } from './scripts.js';

export interface RedisStores {
  readonly tickets: RedisTicketStore;
  readonly registry: RedisServiceRegistry;
  readonly users: RedisUserDirectory;
  readonly readiness: RedisReadinessCheck;
}

/** Every store on one connection (from connectRedis, whose scripts they run), each key after `keyPrefix`. */
export function createRedisStores(client: RedisClient, clock: Clock, keyPrefix: string): RedisStores {
  const keys = new RedisKeys(keyPrefix);
  return {
    tickets: new RedisTicketStore(client, keys, clock),
    registry: new RedisServiceRegistry(client, keys),
    users: new RedisUserDirectory(client, keys),
    readiness: new RedisReadinessCheck(client),
  };
}
