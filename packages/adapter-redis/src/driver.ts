import { createRequire } from 'node:module';
import type * as Driver from 'ioredis';

type RedisDriver = typeof Driver;

const requireDriver = createRequire(import.meta.url);
let loaded: RedisDriver | undefined;

/**
 * The Redis client library, loaded at its first use (a connection) rather than with this package: a
 * server on another storage never loads it. It is CommonJS, so it loads synchronously, and is the one
 * instance every importer of `ioredis` shares.
 */
export function redisDriver(): RedisDriver {
  return (loaded ??= requireDriver('ioredis') as RedisDriver);
}
