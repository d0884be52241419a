import type { RequestRateStore } from '@tessera/core/modules/throttle';
import type { RedisKeys } from './keys.js';
import { runScript, type RedisClient } from './scripts.js';
import { guarded } from './unavailable.js';

/**
 * Token buckets in Redis, shared by every node: a hash per key (`tokens`, `at`), refilled and taken
 * from in one script, so the nodes together let through what one would. A bucket expires once it
 * would be full again, which is the same as a bucket never seen.
 */
export class RedisRequestRateStore implements RequestRateStore {
  constructor(
    private readonly client: RedisClient,
    private readonly keys: RedisKeys,
  ) {}

  async take(key: string, now: number, capacity: number, refillPerSecond: number): Promise<number> {
    const wait = await guarded(() => runScript(this.client, 'tesseraTake', [this.keys.requestRate(key)], [now, capacity, refillPerSecond]));
    return Number(wait);
  }
}
