import type { Collection } from 'mongodb';
import type { Clock, ThrottleState, ThrottleStore } from '@tessera/core';
import { guarded } from './unavailable.js';

/** A throttle key's counters; `_id` is the key (client IP + lower-cased username), unique by nature. */
export interface ThrottleDocument {
  _id: string;
  failures: number;
  windowEndsAt: Date;
  lockedUntil: Date;
  locks: number;
  /** Carries the TTL index; the lock count is kept this long after the last failure or lock ends. */
  expiresAt: Date;
}

/** How long a key's lock count outlives its last window or lock, so a repeat offender's lock keeps doubling. */
export const THROTTLE_RETENTION_MS = 24 * 60 * 60 * 1000;
const DUPLICATE_KEY = 11000;
const ATTEMPTS = 3;

/**
 * Failure counters in MongoDB, shared by every node: each change is one atomic upsert ($inc with
 * $setOnInsert), so two nodes counting at once see one count. Reads filter `expiresAt > now`.
 */
export class MongoThrottleStore implements ThrottleStore {
  constructor(
    private readonly throttle: Collection<ThrottleDocument>,
    private readonly clock: Clock,
  ) {}

  async createIndexes(): Promise<void> {
    await guarded(() => this.throttle.createIndex({ expiresAt: 1 }, { name: 'expiresAt_ttl', expireAfterSeconds: 0 }));
  }

  async get(key: string): Promise<ThrottleState | undefined> {
    const now = this.clock.now();
    const found = await guarded(() => this.throttle.findOne({ _id: key, expiresAt: { $gt: new Date(now) } }));
    return found === null ? undefined : toState(found, now);
  }

  async recordFailure(key: string, windowMs: number): Promise<ThrottleState> {
    const now = this.clock.now();
    const windowEndsAt = new Date(now + windowMs);
    const expiresAt = new Date(now + windowMs + THROTTLE_RETENTION_MS);
    for (let attempt = 1; ; attempt += 1) {
      try {
        // Counts in the open window, or starts the key's first one.
        const counted = await guarded(() =>
          this.throttle.findOneAndUpdate(
            { _id: key, windowEndsAt: { $gt: new Date(now) } },
            { $inc: { failures: 1 }, $max: { expiresAt }, $setOnInsert: { windowEndsAt, lockedUntil: new Date(0), locks: 0 } },
            { upsert: true, returnDocument: 'after' },
          ),
        );
        return toState(counted!, now);
      } catch (error) {
        // The key exists with a closed window (the upsert's insert collided). A record past its own
        // expiry is gone for good (its lock count too); otherwise a new window opens on it.
        if ((error as { code?: unknown }).code !== DUPLICATE_KEY || attempt === ATTEMPTS) throw error;
        await guarded(() => this.throttle.deleteOne({ _id: key, expiresAt: { $lte: new Date(now) } }));
        const reopened = await this.reopenWindow(key, now, windowEndsAt, expiresAt);
        if (reopened !== undefined) return reopened;
      }
    }
  }

  async lock(key: string, until: number): Promise<ThrottleState> {
    const locked = await guarded(() =>
      this.throttle.findOneAndUpdate(
        { _id: key },
        { $set: { lockedUntil: new Date(until) }, $inc: { locks: 1 }, $max: { expiresAt: new Date(until + THROTTLE_RETENTION_MS) }, $setOnInsert: { failures: 0, windowEndsAt: new Date(0) } },
        { upsert: true, returnDocument: 'after' },
      ),
    );
    return toState(locked!, this.clock.now());
  }

  async reset(key: string): Promise<void> {
    await guarded(() => this.throttle.deleteOne({ _id: key }));
  }

  /** Starts a new window on a key whose window closed; undefined when another node changed it first. */
  private async reopenWindow(key: string, now: number, windowEndsAt: Date, expiresAt: Date): Promise<ThrottleState | undefined> {
    const reopened = await guarded(() =>
      this.throttle.findOneAndUpdate(
        { _id: key, windowEndsAt: { $lte: new Date(now) } },
        { $set: { failures: 1, windowEndsAt }, $max: { expiresAt } },
        { returnDocument: 'after' },
      ),
    );
    return reopened === null ? undefined : toState(reopened, now);
  }
}

function toState(document: ThrottleDocument, now: number): ThrottleState {
  return {
    failures: document.windowEndsAt.getTime() > now ? document.failures : 0,
    lockedUntil: document.lockedUntil.getTime() > now ? document.lockedUntil.getTime() : 0,
    locks: document.locks,
  };
}
