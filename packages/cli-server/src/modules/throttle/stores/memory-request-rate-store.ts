import type { RequestRateStore } from '@tessera/core/modules/throttle';

interface Bucket {
  readonly tokens: number;
  readonly at: number;
}

/**
 * RequestRateStore in one process's memory, holding at most `maxKeys` buckets. When full, the least
 * recently used bucket makes room once it has refilled: a full bucket is the same as none, so forgetting
 * it changes nothing. Until then a new client waits as if its bucket were empty, rather than a client
 * being limited getting its burst back from a flood of new addresses.
 */
export class MemoryRequestRateStore implements RequestRateStore {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly maxKeys = 100_000) {}

  take(key: string, now: number, capacity: number, refillPerSecond: number): Promise<number> {
    const bucket = this.buckets.get(key);
    if (!bucket) {
      const waitForRoom = this.makeRoom(now, capacity, refillPerSecond);
      if (waitForRoom > 0) return Promise.resolve(waitForRoom);
    }
    const elapsed = bucket ? Math.max(0, now - bucket.at) : 0;
    const tokens = bucket ? Math.min(capacity, bucket.tokens + (elapsed * refillPerSecond) / 1000) : capacity;
    const taken = tokens >= 1;
    this.buckets.delete(key);
    this.buckets.set(key, { tokens: taken ? tokens - 1 : tokens, at: now });
    return Promise.resolve(taken ? 0 : Math.ceil(((1 - tokens) * 1000) / refillPerSecond));
  }

  /** 0 when there is room (forgetting the least recently used bucket if it has refilled), else the ms until it will have. */
  private makeRoom(now: number, capacity: number, refillPerSecond: number): number {
    if (this.buckets.size < this.maxKeys) return 0;
    const [oldestKey, oldest] = this.buckets.entries().next().value ?? [];
    if (oldestKey === undefined || oldest === undefined) return 0;
    const refilledAt = oldest.at + ((capacity - oldest.tokens) * 1000) / refillPerSecond;
    if (refilledAt > now) return Math.ceil(refilledAt - now);
    this.buckets.delete(oldestKey);
    return 0;
  }
}
