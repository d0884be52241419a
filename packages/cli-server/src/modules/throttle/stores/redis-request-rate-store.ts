import { guarded, RedisScript, type RedisClient } from '@tessera/adapter-redis';
import type { RequestRateStore } from '@tessera/core/modules/throttle';

/**
 * KEYS: bucket. ARGV: now, capacity, refillPerSecond. A token bucket, as MemoryRequestRateStore:
 * returns 0 when a token was taken, else the ms until one is there. The bucket expires once full
 * again, which is the same as never seen.
 */
const TAKE = new RedisScript(
  'tesseraRequestRateTake',
  `
local now, capacity, rate = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local bucket = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = capacity
if bucket[1] then tokens = math.min(capacity, tonumber(bucket[1]) + math.max(0, now - tonumber(bucket[2])) * rate / 1000) end
local taken = tokens >= 1
if taken then tokens = tokens - 1 end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'at', ARGV[1])
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) * 1000 / rate) + 1000)
if taken then return 0 end
return math.ceil((1 - tokens) * 1000 / rate)`,
);

/**
 * Token buckets in Redis, shared by every node: a hash per key (`<keyPrefix>rate:<key>`: `tokens`,
 * `at`), refilled and taken from in one script, so the nodes together let through what one would. A
 * bucket expires once it would be full again, which is the same as a bucket never seen.
 */
export class RedisRequestRateStore implements RequestRateStore {
  constructor(
    private readonly client: RedisClient,
    private readonly keyPrefix: string,
  ) {}

  async take(key: string, now: number, capacity: number, refillPerSecond: number): Promise<number> {
    const wait = await guarded(() => TAKE.run(this.client, [this.keyOf(key)], [now, capacity, refillPerSecond]));
    return Number(wait);
  }

  /** The bucket's hash, named as before this store moved into the module. */
  keyOf(key: string): string {
    return `${this.keyPrefix}rate:${key}`;
  }
}
