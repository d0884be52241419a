import { guarded, RedisScript, type RedisClient } from '@tessera/adapter-redis';
import type { AdmissionLimits, Admission, ThrottleState, ThrottleStore } from '@tessera/core/modules/throttle';

/** How long a key's lock count outlives its last window or lock, so a repeat offender's lock keeps doubling (as in Mongo). */
export const THROTTLE_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * KEYS: throttle key. ARGV: now, end of a window opened now, ttlMs of a window opened now, threshold, inFlightCap.
 * Admits an attempt (one more in flight) unless the key is locked, or has failed and its failures plus
 * attempts in flight reach the threshold, or its attempts in flight reach the cap: then it changes
 * nothing. Returns { admitted (1 or 0), failures, inFlight, windowEndsAt, lockedUntil, locks } after.
 */
const ADMIT = new RedisScript(
  'tesseraThrottleAdmit',
  `
local now = tonumber(ARGV[1])
local state = redis.call('HMGET', KEYS[1], 'failures', 'inFlight', 'windowEndsAt', 'lockedUntil', 'locks')
local failures, inFlight, windowEndsAt = tonumber(state[1]) or 0, tonumber(state[2]) or 0, tonumber(state[3]) or 0
local lockedUntil, locks = tonumber(state[4]) or 0, tonumber(state[5]) or 0
if lockedUntil > now then return { 0, failures, inFlight, windowEndsAt, lockedUntil, locks } end
local open = windowEndsAt > now
if not open then failures, inFlight = 0, 0 end
local failing = (failures > 0 or locks > 0) and failures + inFlight >= tonumber(ARGV[4])
if failing or inFlight >= tonumber(ARGV[5]) then return { 0, failures, inFlight, windowEndsAt, lockedUntil, locks } end
if open then
  inFlight = redis.call('HINCRBY', KEYS[1], 'inFlight', 1)
else
  inFlight, windowEndsAt = 1, tonumber(ARGV[2])
  redis.call('HSET', KEYS[1], 'failures', '0', 'inFlight', '1', 'windowEndsAt', ARGV[2], 'lockedUntil', state[4] or '0', 'locks', state[5] or '0')
  if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
end
return { 1, failures, inFlight, windowEndsAt, lockedUntil, locks }`,
);

/**
 * KEYS: throttle key. ARGV: the end of the window the attempt was admitted in. While that window is the
 * key's, the attempt leaves the attempts in flight (never below 0) and counts as a failure; returns
 * { failures, inFlight, windowEndsAt, lockedUntil, locks } after, or nothing.
 */
const FAILED = new RedisScript(
  'tesseraThrottleFailed',
  `
local state = redis.call('HMGET', KEYS[1], 'failures', 'inFlight', 'windowEndsAt', 'lockedUntil', 'locks')
if state[3] ~= ARGV[1] then return false end
local inFlight = math.max(0, (tonumber(state[2]) or 0) - 1)
local failures = (tonumber(state[1]) or 0) + 1
redis.call('HSET', KEYS[1], 'failures', failures, 'inFlight', inFlight)
return { failures, inFlight, tonumber(state[3]), tonumber(state[4]) or 0, tonumber(state[5]) or 0 }`,
);

/**
 * KEYS: throttle key. ARGV: the end of the window the attempt was admitted in. It leaves the attempts in
 * flight while that window is the key's; a key left with no failure, lock count or attempt in flight is deleted.
 */
const UNJUDGED = new RedisScript(
  'tesseraThrottleUnjudged',
  `
local state = redis.call('HMGET', KEYS[1], 'inFlight', 'windowEndsAt', 'failures', 'locks')
if state[2] ~= ARGV[1] then return 0 end
local inFlight = math.max(0, (tonumber(state[1]) or 0) - 1)
if inFlight == 0 and (tonumber(state[3]) or 0) == 0 and (tonumber(state[4]) or 0) == 0 then
  redis.call('DEL', KEYS[1])
elseif (tonumber(state[1]) or 0) > 0 then
  redis.call('HINCRBY', KEYS[1], 'inFlight', -1)
end
return 0`,
);

/** KEYS: throttle key. ARGV: now, until, ttlMs, minFailures. Locks a key not locked at now whose open window counts minFailures; 1 when this call locked it. */
const LOCK = new RedisScript(
  'tesseraThrottleLock',
  `
local now = tonumber(ARGV[1])
local state = redis.call('HMGET', KEYS[1], 'failures', 'windowEndsAt', 'lockedUntil')
if (tonumber(state[3]) or 0) > now or (tonumber(state[2]) or 0) <= now or (tonumber(state[1]) or 0) < tonumber(ARGV[4]) then return 0 end
redis.call('HSET', KEYS[1], 'lockedUntil', ARGV[2], 'failures', '0')
redis.call('HINCRBY', KEYS[1], 'locks', 1)
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 1`,
);

/**
 * KEYS: throttle key. ARGV: now, the end of the window of the success's own attempt ('' when none).
 * Forgets failures, lock and lock count: deletes the key unless other attempts of its open window are in flight.
 */
const FORGET = new RedisScript(
  'tesseraThrottleForget',
  `
local state = redis.call('HMGET', KEYS[1], 'inFlight', 'windowEndsAt')
local inFlight = tonumber(state[1]) or 0
if state[2] ~= false and state[2] == ARGV[2] then inFlight = inFlight - 1 end
if (tonumber(state[2]) or 0) <= tonumber(ARGV[1]) or inFlight <= 0 then
  redis.call('DEL', KEYS[1])
else
  redis.call('HSET', KEYS[1], 'failures', '0', 'inFlight', inFlight, 'lockedUntil', '0', 'locks', '0')
end
return 0`,
);

/**
 * Throttle state in Redis, shared by every node: a hash per key (`<keyPrefix>throttle:<key>`:
 * `failures`, `inFlight`, `windowEndsAt`, `lockedUntil`, `locks`). Admitting, settling, locking and
 * forgetting are each one script, so two nodes admitting at once see one count, never check more than
 * the bounds allow between them, and only one of them locks a key. Times come from the caller's clock.
 */
export class RedisThrottleStore implements ThrottleStore {
  constructor(
    private readonly client: RedisClient,
    private readonly keyPrefix: string,
  ) {}

  async get(key: string): Promise<ThrottleState | undefined> {
    const fields = await guarded(() => this.client.hgetall(this.keyOf(key)));
    if (fields['windowEndsAt'] === undefined) return undefined;
    return {
      failures: Number(fields['failures'] ?? 0),
      inFlight: Number(fields['inFlight'] ?? 0),
      windowEndsAt: Number(fields['windowEndsAt']),
      lockedUntil: Number(fields['lockedUntil'] ?? 0),
      locks: Number(fields['locks'] ?? 0),
    };
  }

  async admit(key: string, now: number, { windowMs, threshold, inFlightCap }: AdmissionLimits): Promise<Admission> {
    const answer = await guarded(() => ADMIT.run(this.client, [this.keyOf(key)], [now, now + windowMs, windowMs + THROTTLE_RETENTION_MS, threshold, inFlightCap]));
    const [admitted, failures, inFlight, windowEndsAt, lockedUntil, locks] = (answer as unknown[]).map(Number) as [number, number, number, number, number, number];
    return { admitted: admitted === 1, failures, inFlight, windowEndsAt, lockedUntil, locks };
  }

  async failed(key: string, windowEndsAt: number): Promise<ThrottleState | undefined> {
    const answer = await guarded(() => FAILED.run(this.client, [this.keyOf(key)], [windowEndsAt]));
    if (!Array.isArray(answer)) return undefined;
    const [failures, inFlight, endsAt, lockedUntil, locks] = answer.map(Number) as [number, number, number, number, number];
    return { failures, inFlight, windowEndsAt: endsAt, lockedUntil, locks };
  }

  async unjudged(key: string, windowEndsAt: number): Promise<void> {
    await guarded(() => UNJUDGED.run(this.client, [this.keyOf(key)], [windowEndsAt]));
  }

  async lock(key: string, now: number, until: number, minFailures: number): Promise<boolean> {
    const locked = await guarded(() => LOCK.run(this.client, [this.keyOf(key)], [now, until, Math.max(1, until - now) + THROTTLE_RETENTION_MS, minFailures]));
    return Number(locked) === 1;
  }

  async forget(key: string, now: number, windowEndsAt?: number): Promise<void> {
    await guarded(() => FORGET.run(this.client, [this.keyOf(key)], [now, windowEndsAt ?? '']));
  }

  /** The key's hash, named as before this store moved into the module, so an upgrade keeps every count and lock. */
  keyOf(key: string): string {
    return `${this.keyPrefix}throttle:${key}`;
  }
}
