import { guarded, RedisScript, type RedisClient } from '@tessera/adapter-redis';
import type { ThrottleState, ThrottleStore } from '@tessera/core/modules/throttle';

/** How long a key's lock count outlives its last window or lock, so a repeat offender's lock keeps doubling (as in Mongo). */
export const THROTTLE_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * KEYS: throttle key. ARGV: now, end of a window opened now, ttlMs of a window opened now. Counts in
 * the open window, or opens one counting 1; returns the failures counted.
 */
const RECORD_FAILURE = new RedisScript(
  'tesseraThrottleRecordFailure',
  `
local state = redis.call('HMGET', KEYS[1], 'windowEndsAt', 'lockedUntil')
if (tonumber(state[1]) or 0) > tonumber(ARGV[1]) then
  return redis.call('HINCRBY', KEYS[1], 'failures', 1)
end
redis.call('HSET', KEYS[1], 'failures', '1', 'windowEndsAt', ARGV[2])
if not state[2] then redis.call('HSET', KEYS[1], 'lockedUntil', '0', 'locks', '0') end
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 1`,
);

/** KEYS: throttle key. ARGV: now, until, ttlMs. Locks a key not locked at now; 1 when this call locked it. */
const LOCK = new RedisScript(
  'tesseraThrottleLock',
  `
if (tonumber(redis.call('HGET', KEYS[1], 'lockedUntil')) or 0) > tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'lockedUntil', ARGV[2], 'failures', '0', 'windowEndsAt', '0')
redis.call('HINCRBY', KEYS[1], 'locks', 1)
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 1`,
);

/**
 * Failure counters in Redis, shared by every node: a hash per key (`<keyPrefix>throttle:<key>`:
 * `failures`, `windowEndsAt`, `lockedUntil`, `locks`). Counting and locking are each one script, so
 * two nodes counting at once see one count and only one of them locks a key. Times come from the
 * caller's clock.
 */
export class RedisThrottleStore implements ThrottleStore {
  constructor(
    private readonly client: RedisClient,
    private readonly keyPrefix: string,
  ) {}

  async get(key: string): Promise<ThrottleState | undefined> {
    const fields = await guarded(() => this.client.hgetall(this.keyOf(key)));
    if (fields['failures'] === undefined) return undefined;
    return {
      failures: Number(fields['failures']),
      windowEndsAt: Number(fields['windowEndsAt']),
      lockedUntil: Number(fields['lockedUntil']),
      locks: Number(fields['locks']),
    };
  }

  async recordFailure(key: string, now: number, windowMs: number): Promise<number> {
    const counted = await guarded(() => RECORD_FAILURE.run(this.client, [this.keyOf(key)], [now, now + windowMs, windowMs + THROTTLE_RETENTION_MS]));
    return Number(counted);
  }

  async lock(key: string, now: number, until: number): Promise<boolean> {
    const locked = await guarded(() => LOCK.run(this.client, [this.keyOf(key)], [now, until, Math.max(1, until - now) + THROTTLE_RETENTION_MS]));
    return Number(locked) === 1;
  }

  async reset(key: string): Promise<void> {
    await guarded(() => this.client.del(this.keyOf(key)));
  }

  /** The key's hash, named as before this store moved into the module, so an upgrade keeps every count and lock. */
  keyOf(key: string): string {
    return `${this.keyPrefix}throttle:${key}`;
  }
}
