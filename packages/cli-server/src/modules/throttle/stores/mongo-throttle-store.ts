import type { Collection, Document, Filter } from 'mongodb';
import type { AdmissionLimits, Admission, ThrottleState, ThrottleStore } from '@tessera/core/modules/throttle';
import { ExpiringCollection, isDuplicateKey, type Guarded } from '@tessera/adapter-mongo';

/** A throttle key's counters; `_id` is the key (client IP + lower-cased username), unique by nature. */
export interface ThrottleDocument {
  _id: string;
  failures: number;
  /** Attempts of the window admitted and not settled; absent in documents of earlier versions (none). */
  inFlight?: number;
  windowEndsAt: Date;
  lockedUntil: Date;
  locks: number;
  /** Whether the last admit admitted its attempt (the other fields alone cannot tell a refusal from an attempt that just filled the window). */
  admitted?: boolean;
  /** Carries the TTL index: a key is forgotten this long after its last window or lock ended. */
  expiresAt: Date;
}

/** How long a key's lock count outlives its last window or lock, so a repeat offender's lock keeps doubling. */
export const THROTTLE_RETENTION_MS = 24 * 60 * 60 * 1000;
const ATTEMPTS = 3;

/**
 * Failures and attempts in flight in MongoDB, shared by every node, exactly as core's ThrottleStore port
 * describes: each method is one single-document atomic update (forget: a conditional delete, else one
 * update), so two nodes admitting at once see one count, never check more than the bounds allow between
 * them, and only one of them locks a key. Times come from the caller's clock; the TTL index on `expiresAt` is garbage collection.
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

  async admit(key: string, now: number, limits: AdmissionLimits): Promise<Admission> {
    const update = admitPipeline(now, limits);
    for (let attempt = 1; ; attempt += 1) {
      try {
        const state = await this.throttle.run((throttle) => throttle.findOneAndUpdate({ _id: key }, update, { upsert: true, returnDocument: 'after' }));
        if (state === null) throw new Error('MongoDB returned no document for an upsert asked to return it');
        return { ...toState(state), admitted: state.admitted === true };
      } catch (error) {
        // Another node inserted the new key first (a server may answer so rather than retry the upsert
        // itself); nothing was written, and the same update now admits on that document.
        if (!isDuplicateKey(error) || attempt === ATTEMPTS) throw error;
      }
    }
  }

  async failed(key: string, windowEndsAt: number): Promise<ThrottleState | undefined> {
    const settled = await this.throttle.run((throttle) =>
      throttle.findOneAndUpdate(
        { _id: key, windowEndsAt: new Date(windowEndsAt) },
        [{ $set: { inFlight: { $max: [{ $subtract: [{ $ifNull: ['$inFlight', 0] }, 1] }, 0] }, failures: { $add: [{ $ifNull: ['$failures', 0] }, 1] } } }],
        { returnDocument: 'after' },
      ),
    );
    return settled === null ? undefined : toState(settled);
  }

  async unjudged(key: string, windowEndsAt: number): Promise<void> {
    const window = new Date(windowEndsAt);
    // A key this attempt alone held is deleted: requests answered without a check leave nothing for a day.
    const deleted = await this.throttle.run((throttle) => throttle.deleteOne({ _id: key, windowEndsAt: window, inFlight: { $lte: 1 }, failures: 0, locks: 0 }));
    if (deleted.deletedCount === 1) return;
    await this.throttle.run((throttle) => throttle.findOneAndUpdate({ _id: key, windowEndsAt: window, inFlight: { $gt: 0 } }, { $inc: { inFlight: -1 } }));
  }

  async lock(key: string, now: number, until: number, minFailures: number): Promise<boolean> {
    const locked = await this.throttle.run((throttle) =>
      throttle.findOneAndUpdate(
        { _id: key, lockedUntil: { $not: { $gt: new Date(now) } }, windowEndsAt: { $gt: new Date(now) }, failures: { $gte: minFailures } },
        {
          $set: { lockedUntil: new Date(until), failures: 0 },
          $inc: { locks: 1 },
          $max: { expiresAt: new Date(until + THROTTLE_RETENTION_MS) },
        },
      ),
    );
    return locked !== null;
  }

  async forget(key: string, now: number, windowEndsAt?: number): Promise<void> {
    const own = windowEndsAt === undefined ? undefined : new Date(windowEndsAt);
    // Deleted when no other attempt of an open window is in flight: a login's success costs this one step.
    const nothingElseInFlight: Filter<ThrottleDocument>[] = [{ windowEndsAt: { $lte: new Date(now) } }, { inFlight: { $not: { $gt: 0 } } }, ...(own ? [{ windowEndsAt: own, inFlight: { $lte: 1 } }] : [])];
    const deleted = await this.throttle.run((throttle) => throttle.deleteOne({ _id: key, $or: nothingElseInFlight }));
    if (deleted.deletedCount === 1) return;
    // Others are in flight: the window stays for them, cleared, without this attempt.
    const inFlight = own ? { $cond: [{ $eq: ['$windowEndsAt', own] }, { $max: [{ $subtract: ['$inFlight', 1] }, 0] }, '$inFlight'] } : '$inFlight';
    await this.throttle.run((throttle) => throttle.findOneAndUpdate({ _id: key }, [{ $set: { failures: 0, inFlight, lockedUntil: new Date(0), locks: 0 } }]));
  }
}

/**
 * The memory store's admit, on the server in one update: `admitted` when the key is not locked at `now`,
 * has no failures and locks or fewer than `threshold` failures plus attempts in flight in its open
 * window, and fewer than `inFlightCap` in flight; then the attempt is one more in flight in the open
 * window, or opens one with only itself. A key never seen starts with nothing counted, no lock, no locks.
 */
function admitPipeline(now: number, { windowMs, threshold, inFlightCap }: AdmissionLimits): Document[] {
  const at = new Date(now);
  const never = new Date(0);
  const open = { $gt: [{ $ifNull: ['$windowEndsAt', never] }, at] };
  const locked = { $gt: [{ $ifNull: ['$lockedUntil', never] }, at] };
  // The window's counts: none once it has ended.
  const failures = { $cond: [open, { $ifNull: ['$failures', 0] }, 0] };
  const inFlight = { $cond: [open, { $ifNull: ['$inFlight', 0] }, 0] };
  const failing = { $and: [{ $or: [{ $gt: ['$$failures', 0] }, { $gt: [{ $ifNull: ['$locks', 0] }, 0] }] }, { $gte: [{ $add: ['$$failures', '$$inFlight'] }, threshold] }] };
  return [
    { $set: { admitted: { $let: { vars: { failures, inFlight }, in: { $not: [{ $or: [locked, failing, { $gte: ['$$inFlight', inFlightCap] }] }] } } } } },
    {
      $set: {
        failures: { $cond: ['$admitted', failures, { $ifNull: ['$failures', 0] }] },
        inFlight: { $cond: ['$admitted', { $add: [inFlight, 1] }, { $ifNull: ['$inFlight', 0] }] },
        windowEndsAt: { $cond: [{ $and: ['$admitted', { $not: [open] }] }, new Date(now + windowMs), { $ifNull: ['$windowEndsAt', never] }] },
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
    inFlight: document.inFlight ?? 0,
    windowEndsAt: document.windowEndsAt.getTime(),
    lockedUntil: document.lockedUntil.getTime(),
    locks: document.locks,
  };
}
