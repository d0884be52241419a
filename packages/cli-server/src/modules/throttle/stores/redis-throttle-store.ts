import { guarded, RedisScript, type RedisClient } from '@tessera/adapter-redis';
import type { CountedAttempt, ThrottleState, ThrottleStore } from '@tessera/core/modules/throttle';

/** How long a key's lock count outlives its last window or lock, so a repeat offender's lock keeps doubling (as in Mongo). */
export const THROTTLE_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * KEYS: throttle key. ARGV: now, end of a window opened now, ttlMs of a window opened now, limit.
 * Counts an attempt unless the key is locked or its open window counts `limit`: then it changes
 * nothing. Returns { counted (1 or 0), failures, windowEndsAt, lockedUntil, locks } after.
 */
const COUNT_ATTEMPT = new RedisScript(
  'tesseraThrottleCountAttempt',
  `
local now = tonumber(ARGV[1])
local state = redis.call('HMGET', KEYS[1], 'failures', 'windowEndsAt', 'lockedUntil', 'locks')
local failures, windowEndsAt = tonumber(state[1]) or 0, tonumber(state[2]) or 0
local lockedUntil, locks = tonumber(state[3]) or 0, tonumber(state[4]) or 0
local open = windowEndsAt > now
if lockedUntil > now or (open and failures >= tonumber(ARGV[4])) then
  return { 0, failures, windowEndsAt, lockedUntil, locks }
end
if open then
  failures = redis.call('HINCRBY', KEYS[1], 'failures', 1)
else
  failures, windowEndsAt = 1, tonumber(ARGV[2])
  redis.call('HSET', KEYS[1], 'failures', '1', 'windowEndsAt', ARGV[2], 'lockedUntil', state[3] or '0', 'locks', state[4] or '0')
  if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
end
return { 1, failures, windowEndsAt, lockedUntil, locks }`,
);

/** KEYS: throttle key. ARGV: the end of the window the attempt was counted in. Gives it back while that window is the key's. */
const RELEASE_ATTEMPT = new RedisScript(
  'tesseraThrottleReleaseAttempt',
  `
local state = redis.call('HMGET', KEYS[1], 'failures', 'windowEndsAt')
if state[2] == ARGV[1] and (tonumber(state[1]) or 0) > 0 then redis.call('HINCRBY', KEYS[1], 'failures', -1) end
return 0`,
);

/** KEYS: throttle key. ARGV: now, until, ttlMs, minAttempts. Locks a key not locked at now whose open window counts minAttempts; 1 when this call locked it. */
const LOCK = new RedisScript(
  'tesseraThrottleLock',
  `
local now = tonumber(ARGV[1])
local state = redis.call('HMGET', KEYS[1], 'failures', 'windowEndsAt', 'lockedUntil')
if (tonumber(state[3]) or 0) > now or (tonumber(state[2]) or 0) <= now or (tonumber(state[1]) or 0) < tonumber(ARGV[4]) then return 0 end
redis.call('HSET', KEYS[1], 'lockedUntil', ARGV[2], 'failures', '0', 'windowEndsAt', '0')
redis.call('HINCRBY', KEYS[1], 'locks', 1)
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 1`,
);

/**
 * Attempt counters in Redis, shared by every node: a hash per key (`<keyPrefix>throttle:<key>`:
 * `failures` (the attempts counted), `windowEndsAt`, `lockedUntil`, `locks`). Counting, giving back
 * and locking are each one script, so two nodes counting at once see one count, never check more than
 * the limit between them, and only one of them locks a key. Times come from the caller's clock.
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

  async countAttempt(key: string, now: number, windowMs: number, limit: number): Promise<CountedAttempt> {
    const answer = await guarded(() => COUNT_ATTEMPT.run(this.client, [this.keyOf(key)], [now, now + windowMs, windowMs + THROTTLE_RETENTION_MS, limit]));
    const [counted, failures, windowEndsAt, lockedUntil, locks] = (answer as unknown[]).map(Number) as [number, number, number, number, number];
    return { counted: counted === 1, failures, windowEndsAt, lockedUntil, locks };
  }

  async releaseAttempt(key: string, windowEndsAt: number): Promise<void> {
    await guarded(() => RELEASE_ATTEMPT.run(this.client, [this.keyOf(key)], [windowEndsAt]));
  }

  async lock(key: string, now: number, until: number, minAttempts: number): Promise<boolean> {
    const locked = await guarded(() => LOCK.run(this.client, [this.keyOf(key)], [now, until, Math.max(1, until - now) + THROTTLE_RETENTION_MS, minAttempts]));
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
