import type { RequestRateStore } from '@tessera/core';

interface Bucket {
  readonly tokens: number;
  readonly at: number;
}

/** RequestRateStore in one process's memory, holding at most `maxKeys` buckets (the oldest written goes first). */
export class MemoryRequestRateStore implements RequestRateStore {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly maxKeys = 100_000) {}

  take(key: string, now: number, capacity: number, refillPerSecond: number): Promise<number> {
    const bucket = this.buckets.get(key);
    const elapsed = bucket ? Math.max(0, now - bucket.at) : 0;
    const tokens = bucket ? Math.min(capacity, bucket.tokens + (elapsed * refillPerSecond) / 1000) : capacity;
    const taken = tokens >= 1;
    this.buckets.delete(key);
    if (this.buckets.size >= this.maxKeys) {
      const oldest = this.buckets.keys().next();
      if (!oldest.done) this.buckets.delete(oldest.value);
    }
    this.buckets.set(key, { tokens: taken ? tokens - 1 : tokens, at: now });
    return Promise.resolve(taken ? 0 : Math.ceil(((1 - tokens) * 1000) / refillPerSecond));
  }
}
