import type { Collection } from 'mongodb';
import type { ThrottleState, ThrottleStore } from '@tessera/core/modules/throttle';
import type { Guarded } from '@tessera/adapter-mongo';

/** A throttle key's counters; `_id` is the key (client IP + lower-cased username), unique by nature. */
export interface ThrottleDocument {
  _id: string;
  failures: number;
  windowEndsAt: Date;
  lockedUntil: Date;
  locks: number;
  /** Carries the TTL index: a key is forgotten this long after its last window or lock ended. */
  expiresAt: Date;
}

/** How long a key's lock count outlives its last window or lock, so a repeat offender's lock keeps doubling. */
export const THROTTLE_RETENTION_MS = 24 * 60 * 60 * 1000;
const DUPLICATE_KEY = 11000;
const ATTEMPTS = 3;

/**
 * Failure counters in MongoDB, shared by every node, exactly as core's ThrottleStore port describes: each
 * method is single-document atomic updates, so two nodes counting at once see one count and only one of
 * them locks a key. Times come from the caller's clock; the TTL index on `expiresAt` is garbage collection.
 */
export class MongoThrottleStore implements ThrottleStore {
  constructor(
    private readonly throttle: Collection<ThrottleDocument>,
    private readonly guarded: Guarded,
  ) {}

  async createIndexes(): Promise<void> {
    await this.guarded(() => this.throttle.createIndex({ expiresAt: 1 }, { name: 'expiresAt_ttl', expireAfterSeconds: 0 }));
  }

  async get(key: string): Promise<ThrottleState | undefined> {
    const found = await this.guarded(() => this.throttle.findOne({ _id: key }));
    return found === null ? undefined : toState(found);
  }

  async recordFailure(key: string, now: number, windowMs: number): Promise<number> {
    const expiresAt = new Date(now + windowMs + THROTTLE_RETENTION_MS);
    for (let attempt = 1; ; attempt += 1) {
      // Counts in the open window...
      const counted = await this.guarded(() =>
        this.throttle.findOneAndUpdate({ _id: key, windowEndsAt: { $gt: new Date(now) } }, { $inc: { failures: 1 } }, { returnDocument: 'after' }),
      );
      if (counted !== null) return counted.failures;
      try {
        // ...or opens a new one counting this failure, on an existing key or a new one.
        const opened = await this.guarded(() =>
          this.throttle.findOneAndUpdate(
            { _id: key, windowEndsAt: { $not: { $gt: new Date(now) } } },
            { $set: { failures: 1, windowEndsAt: new Date(now + windowMs) }, $max: { expiresAt }, $setOnInsert: { lockedUntil: new Date(0), locks: 0 } },
            { upsert: true, returnDocument: 'after' },
          ),
        );
        return opened?.failures ?? 1;
      } catch (error) {
        // Another node opened the window between the two steps: count in it from the start.
        if ((error as { code?: unknown }).code !== DUPLICATE_KEY || attempt === ATTEMPTS) throw error;
      }
    }
  }

  async lock(key: string, now: number, until: number): Promise<boolean> {
    try {
      await this.guarded(() =>
        this.throttle.findOneAndUpdate(
          { _id: key, lockedUntil: { $not: { $gt: new Date(now) } } },
          {
            $set: { lockedUntil: new Date(until), failures: 0, windowEndsAt: new Date(0) },
            $inc: { locks: 1 },
            $max: { expiresAt: new Date(until + THROTTLE_RETENTION_MS) },
          },
          { upsert: true, returnDocument: 'after' },
        ),
      );
      return true;
    } catch (error) {
      // The key exists and is locked: the upsert's insert collided. A lock is never extended.
      if ((error as { code?: unknown }).code === DUPLICATE_KEY) return false;
      throw error;
    }
  }

  async reset(key: string): Promise<void> {
    await this.guarded(() => this.throttle.deleteOne({ _id: key }));
  }
}

function toState(document: ThrottleDocument): ThrottleState {
  return {
    failures: document.failures,
    windowEndsAt: document.windowEndsAt.getTime(),
    lockedUntil: document.lockedUntil.getTime(),
    locks: document.locks,
  };
}
