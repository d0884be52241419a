import type { ThrottleState, ThrottleStore } from '@tessera/core/modules/throttle';
import type { RedisKeys } from './keys.js';
import { runScript, type RedisClient } from './scripts.js';
import { guarded } from './unavailable.js';

/** How long a key's lock count outlives its last window or lock, so a repeat offender's lock keeps doubling (as in Mongo). */
export const THROTTLE_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * Failure counters in Redis, shared by every node: a hash per key (`failures`, `windowEndsAt`,
 * `lockedUntil`, `locks`). Counting and locking are each one script, so two nodes counting at once see
 * one count and only one of them locks a key. Times come from the caller's clock.
 */
export class RedisThrottleStore implements ThrottleStore {
  constructor(
    private readonly client: RedisClient,
    private readonly keys: RedisKeys,
  ) {}

  async get(key: string): Promise<ThrottleState | undefined> {
    const fields = await guarded(() => this.client.hgetall(this.keys.throttle(key)));
    if (fields['failures'] === undefined) return undefined;
    return {
      failures: Number(fields['failures']),
      windowEndsAt: Number(fields['windowEndsAt']),
      lockedUntil: Number(fields['lockedUntil']),
      locks: Number(fields['locks']),
    };
  }

  async recordFailure(key: string, now: number, windowMs: number): Promise<number> {
    const counted = await guarded(() => runScript(this.client, 'tesseraRecordFailure', [this.keys.throttle(key)], [now, now + windowMs, windowMs + THROTTLE_RETENTION_MS]));
    return Number(counted);
  }

  async lock(key: string, now: number, until: number): Promise<boolean> {
    const locked = await guarded(() => runScript(this.client, 'tesseraLock', [this.keys.throttle(key)], [now, until, Math.max(1, until - now) + THROTTLE_RETENTION_MS]));
    return Number(locked) === 1;
  }

  async reset(key: string): Promise<void> {
    await guarded(() => this.client.del(this.keys.throttle(key)));
  }
}
