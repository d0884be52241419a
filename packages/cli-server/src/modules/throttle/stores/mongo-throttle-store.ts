import type { Collection, Document } from 'mongodb';
import type { CountedAttempt, ThrottleState, ThrottleStore } from '@tessera/core/modules/throttle';
import { ExpiringCollection, isDuplicateKey, type Guarded } from '@tessera/adapter-mongo';

/** A throttle key's counters; `_id` is the key (client IP + lower-cased username), unique by nature; `failures` counts the window's attempts. */
export interface ThrottleDocument {
  _id: string;
  failures: number;
  windowEndsAt: Date;
  lockedUntil: Date;
  locks: number;
  /** Whether the last countAttempt counted its attempt (with the other fields alone, a full window and one just filled look alike). */
  counted: boolean;
  /** Carries the TTL index: a key is forgotten this long after its last window or lock ended. */
  expiresAt: Date;
}

/** How long a key's lock count outlives its last window or lock, so a repeat offender's lock keeps doubling. */
export const THROTTLE_RETENTION_MS = 24 * 60 * 60 * 1000;
const ATTEMPTS = 3;

/**
 * Attempt counters in MongoDB, shared by every node, exactly as core's ThrottleStore port describes: each
 * method is one single-document atomic update, so two nodes counting at once see one count, never check
 * more than the limit between them, and only one of them locks a key. Times come from the caller's clock; the TTL index on `expiresAt` is garbage collection.
 */
export class MongoThrottleStore implements ThrottleStore {
  private readonly throttle: ExpiringCollection<ThrottleDocument>;

  constructor(throttle: Collection<ThrottleDocument>, guarded: Guarded) {
    this.throttle = new ExpiringCollection(throttle, guarded);
  }

  async createIndexes(): Promise<void> {
    await this.throttle.createTtlIndex();
  }

  async get(key: string): Promise<ThrottleState | undefined> {
    const found = await this.throttle.run((throttle) => throttle.findOne({ _id: key }));
    return found === null ? undefined : toState(found);
  }

  async countAttempt(key: string, now: number, windowMs: number, limit: number): Promise<CountedAttempt> {
    const update = countAttemptPipeline(now, windowMs, limit);
    for (let attempt = 1; ; attempt += 1) {
      try {
        const counted = await this.throttle.run((throttle) => throttle.findOneAndUpdate({ _id: key }, update, { upsert: true, returnDocument: 'after' }));
        if (counted === null) throw new Error('MongoDB returned no document for an upsert asked to return it');
        return { ...toState(counted), counted: counted.counted };
      } catch (error) {
        // Another node inserted the new key first (a server may answer so rather than retry the upsert
        // itself); nothing was written, and the same update now counts on that document.
        if (!isDuplicateKey(error) || attempt === ATTEMPTS) throw error;
      }
    }
  }

  async releaseAttempt(key: string, windowEndsAt: number): Promise<void> {
    await this.throttle.run((throttle) => throttle.findOneAndUpdate({ _id: key, windowEndsAt: new Date(windowEndsAt), failures: { $gt: 0 } }, { $inc: { failures: -1 } }));
  }

  async lock(key: string, now: number, until: number, minAttempts: number): Promise<boolean> {
    const locked = await this.throttle.run((throttle) =>
      throttle.findOneAndUpdate(
        { _id: key, lockedUntil: { $not: { $gt: new Date(now) } }, windowEndsAt: { $gt: new Date(now) }, failures: { $gte: minAttempts } },
        {
          $set: { lockedUntil: new Date(until), failures: 0, windowEndsAt: new Date(0) },
          $inc: { locks: 1 },
          $max: { expiresAt: new Date(until + THROTTLE_RETENTION_MS) },
        },
      ),
    );
    return locked !== null;
  }

  async reset(key: string): Promise<void> {
    await this.throttle.run((throttle) => throttle.deleteOne({ _id: key }));
  }
}

/**
 * The memory store's countAttempt, on the server in one update: `counted` when the key is not locked at
 * `now` and its open window counts fewer than `limit` attempts; then the attempt is counted in the open
 * window or opens one counting 1. A key never seen starts with nothing counted, no lock, no locks.
 */
function countAttemptPipeline(now: number, windowMs: number, limit: number): Document[] {
  const at = new Date(now);
  const never = new Date(0);
  const open = { $gt: [{ $ifNull: ['$windowEndsAt', never] }, at] };
  const locked = { $gt: [{ $ifNull: ['$lockedUntil', never] }, at] };
  const full = { $and: [open, { $gte: [{ $ifNull: ['$failures', 0] }, limit] }] };
  return [
    { $set: { counted: { $not: [{ $or: [locked, full] }] } } },
    {
      $set: {
        failures: { $cond: ['$counted', { $cond: [open, { $add: ['$failures', 1] }, 1] }, { $ifNull: ['$failures', 0] }] },
        windowEndsAt: { $cond: [{ $and: ['$counted', { $not: [open] }] }, new Date(now + windowMs), { $ifNull: ['$windowEndsAt', never] }] },
        lockedUntil: { $ifNull: ['$lockedUntil', never] },
        locks: { $ifNull: ['$locks', 0] },
        expiresAt: { $max: [{ $ifNull: ['$expiresAt', never] }, new Date(now + windowMs + THROTTLE_RETENTION_MS)] },
      },
    },
  ];
}

function toState(document: ThrottleDocument): ThrottleState {
  return {
    failures: document.failures,
    windowEndsAt: document.windowEndsAt.getTime(),
    lockedUntil: document.lockedUntil.getTime(),
    locks: document.locks,
  };
}
