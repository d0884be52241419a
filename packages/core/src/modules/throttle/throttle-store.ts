/**
 * Authentication-failure state per throttle key (client address group + lower-cased username), shared by every
 * node. Each method is one atomic step; the module's Mongo store (cli-server modules/throttle/stores)
 * keeps one document per key, `{ _id: key, failures, windowEndsAt, lockedUntil, locks }`, and every
 * method maps to single-document updates:
 * - recordFailure: `updateOne({ _id, windowEndsAt: { $gt: now } }, { $inc: { failures: 1 } })`; when that
 *   matches nothing, `findOneAndUpdate({ _id, windowEndsAt: { $not: { $gt: now } } }, { $set: { failures: 1,
 *   windowEndsAt: now + windowMs } }, { upsert: true })`, retried from the start on duplicate key 11000;
 * - lock: `findOneAndUpdate({ _id, lockedUntil: { $not: { $gt: now } } }, { $set: { lockedUntil: until,
 *   failures: 0, windowEndsAt: 0 }, $inc: { locks: 1 } }, { upsert: true })`; duplicate key 11000 means the
 *   key is already locked: answer false;
 * - reset: `deleteOne({ _id })`. A TTL index may drop documents whose lock and window ended long ago.
 * Times are epoch milliseconds from the caller's clock: stores never read a clock of their own.
 */
export interface ThrottleState {
  /** Failures counted in the current window; 0 once the window has ended. */
  readonly failures: number;
  /** Epoch ms at which the current failure window ends (0: no window open). */
  readonly windowEndsAt: number;
  /** Epoch ms until which the key is locked; at or before `now` it is not locked. */
  readonly lockedUntil: number;
  /** Locks since the key's last success; each one doubles the next. */
  readonly locks: number;
}

export interface ThrottleStore {
  /**
   * The key's state, or undefined for a key never seen (or reset). A bounded store that cannot take a
   * new key without forgetting an active lock answers it as locked until it can (and does not keep it).
   */
  get(key: string): Promise<ThrottleState | undefined>;

  /**
   * Counts one failure. A window opens at the first failure and lasts `windowMs`; a failure after it
   * ended opens a new window counting 1. Returns the failures in the window after counting.
   */
  recordFailure(key: string, now: number, windowMs: number): Promise<number>;

  /**
   * Locks the key until `until`, counts the lock and clears the failure window, but only if the key is
   * not locked at `now`: a lock is never extended. True when this call locked the key.
   */
  lock(key: string, now: number, until: number): Promise<boolean>;

  /** Forgets the key: failures, lock and lock count (after a success). */
  reset(key: string): Promise<void>;
}
