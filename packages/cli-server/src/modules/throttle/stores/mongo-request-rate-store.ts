import type { Collection, Document } from 'mongodb';
import type { RequestRateStore } from '@tessera/core/modules/throttle';
import type { Guarded } from '@tessera/adapter-mongo';

/** A token bucket; `_id` is its key (a client IP). */
export interface RequestRateDocument {
  _id: string;
  /** Tokens left at `at`, a fraction while refilling. */
  tokens: number;
  /** Milliseconds since the epoch on the caller's clock, kept exact as the memory and Redis stores keep it. */
  at: number;
  /** Whether the last take got a token: with `tokens` alone, 0.5 left could follow a take from 1.5 or a refusal. */
  taken: boolean;
  /** Carries the TTL index: the bucket is full again by then, the same as a bucket never seen. */
  expiresAt: Date;
}

/**
 * How long a bucket outlives its refill before the TTL monitor (the database's clock) may delete it: the
 * nodes' clocks, which stamped it, may be behind, and a bucket forgotten early would hand back tokens.
 */
export const REQUEST_RATE_RETENTION_MS = 60_000;
const DUPLICATE_KEY = 11000;
const ATTEMPTS = 3;

/**
 * Token buckets in MongoDB, shared by every node, exactly as core's RequestRateStore port describes:
 * each take is one `findOneAndUpdate` whose pipeline refills, takes and stamps the bucket on the server,
 * so the nodes together let through what one would. Times come from the caller's clock; the TTL index
 * on `expiresAt` is garbage collection.
 */
export class MongoRequestRateStore implements RequestRateStore {
  constructor(
    private readonly buckets: Collection<RequestRateDocument>,
    private readonly guarded: Guarded,
  ) {}

  async createIndexes(): Promise<void> {
    await this.guarded(() => this.buckets.createIndex({ expiresAt: 1 }, { name: 'expiresAt_ttl', expireAfterSeconds: 0 }));
  }

  async take(key: string, now: number, capacity: number, refillPerSecond: number): Promise<number> {
    const update = takePipeline(now, capacity, refillPerSecond);
    for (let attempt = 1; ; attempt += 1) {
      try {
        const bucket = await this.guarded(() => this.buckets.findOneAndUpdate({ _id: key }, update, { upsert: true, returnDocument: 'after' }));
        if (bucket === null) throw new Error('MongoDB returned no document for an upsert asked to return it');
        return bucket.taken ? 0 : Math.ceil(((1 - bucket.tokens) * 1000) / refillPerSecond);
      } catch (error) {
        // Another node inserted the new key first (a server may answer so rather than retry the upsert
        // itself); nothing was written, and the same update now takes from that bucket.
        if ((error as { code?: unknown }).code !== DUPLICATE_KEY || attempt === ATTEMPTS) throw error;
      }
    }
  }
}

/**
 * The memory store's arithmetic, step by step on the server: a bucket never seen is full, an existing
 * one refills for the time since `at` (none if the clock went back) up to `capacity`; one token is taken
 * when at least one is there; `at` becomes now whatever the outcome.
 */
function takePipeline(now: number, capacity: number, refillPerSecond: number): Document[] {
  const refill = { $divide: [{ $multiply: [{ $max: [0, { $subtract: [now, '$at'] }] }, refillPerSecond] }, 1000] };
  return [
    { $set: { tokens: { $cond: [{ $eq: [{ $type: '$tokens' }, 'missing'] }, capacity, { $min: [capacity, { $add: ['$tokens', refill] }] }] }, at: now } },
    { $set: { taken: { $gte: ['$tokens', 1] } } },
    { $set: { tokens: { $cond: ['$taken', { $subtract: ['$tokens', 1] }, '$tokens'] } } },
    { $set: { expiresAt: { $add: [new Date(now + REQUEST_RATE_RETENTION_MS), { $ceil: { $divide: [{ $multiply: [{ $subtract: [capacity, '$tokens'] }, 1000] }, refillPerSecond] } }] } } },
  ];
}
