import { MemoryUserDirectory } from '@tessera/adapter-memory';
import { RedisKeys, RedisRecordStores, connectRedis, createRedisStores, type RedisSettings } from '@tessera/adapter-redis';
import { InvalidConfigurationError, StoreUnavailableError } from '@tessera/core';
import type { CentralSections } from '../config/central.js';
import { ServicesStoredThenConfigured, UsersConfiguredThenStored } from './configured-and-stored.js';
import type { Storage, StorageInputs } from './storage.js';

/**
 * Connects (at most `connectTimeoutMs`), then writes the configured services into the shared registry
 * (every node writes the same; services registered over REST stay). Configured users are never
 * written: they are answered from the configuration, before the users in Redis, and configured
 * services Redis has lost from it too, so a Redis that comes back empty costs them nothing. Any
 * failure here stops the start with one line naming the setting; but with `serveBeforeStore` (the
 * server) a Redis that cannot be reached yet does not: requests answer 503 and readiness says the
 * storage is down until it answers, and the services are written then.
 */
export async function openRedisStorage({ config, services, clock, random, logger, serveBeforeStore }: StorageInputs): Promise<Storage> {
  const settings = config.storage.redis;
  const setting = settings.url === undefined ? 'storage.redis.cluster.nodes' : 'storage.redis.url';
  let registryWritten: (() => void) | undefined;
  const connection = await connectRedis(
    redisSettings(settings),
    {
      lost: (reason) => logger.warn({ reason }, 'Redis connection lost: requests that need it answer 503 until it is back'),
      restored: () => {
        logger.info('Redis connection restored');
        registryWritten?.();
      },
    },
    { keepTrying: serveBeforeStore === true },
  ).catch((error: unknown) => {
    throw startFailure(error, setting);
  });
  try {
    const stores = createRedisStores(connection.client, clock, settings.keyPrefix);
    const writeRegistry = async () => {
      for (const service of services) await stores.registry.save(service);
      logger.info({ redis: connection.target, keyPrefix: settings.keyPrefix, services: services.length }, 'Redis storage ready');
    };
    if (connection.unreachable === undefined) {
      await writeRegistry();
    } else {
      logger.warn({ setting, reason: connection.unreachable }, `${setting}: Redis cannot be reached yet: serving, not ready (/health/ready 503), requests that need it answer 503 until it answers`);
      // Once, at its first answer; a failure then is logged and the configured services are still served from the configuration.
      registryWritten = () => {
        registryWritten = undefined;
        writeRegistry().catch((error: unknown) => logger.warn({ err: error }, 'could not write the configured services into Redis; they are served from the configuration'));
      };
    }
    const { tickets, readiness } = stores;
    const users = new UsersConfiguredThenStored(new MemoryUserDirectory(config.users), stores.users);
    const registry = new ServicesStoredThenConfigured(stores.registry, services);
    const records = new RedisRecordStores(connection.client, new RedisKeys(settings.keyPrefix), clock, random);
    return {
      ports: { tickets, registry, users, records, readiness, liveTgts: tickets },
      connection: { kind: 'redis', client: connection.client, keyPrefix: settings.keyPrefix },
      close: () => connection.close(),
    };
  } catch (error) {
    await connection.close();
    throw startFailure(error, setting);
  }
}

function redisSettings(settings: CentralSections['storage']['redis']): RedisSettings {
  const { url, cluster, connectTimeoutMs, commandTimeoutMs } = settings;
  return { url, clusterNodes: cluster?.nodes, connectTimeoutMs, commandTimeoutMs };
}

/** An unreachable Redis stays "unavailable" (exit 1); a refusal (a wrong password) is configuration (exit 2). */
function startFailure(error: unknown, setting: string): Error {
  const reason = error instanceof Error ? error.message : String(error);
  if (error instanceof StoreUnavailableError) return new StoreUnavailableError(`${setting}: ${reason}`, { cause: error });
  return new InvalidConfigurationError(setting, `Redis refused: ${reason}`);
}
