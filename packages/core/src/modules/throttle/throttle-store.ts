/**
 * Attempt and lock state per throttle key (client address group + lower-cased username, or a client's:
 * docs/protocol.md §5), shared by every node. An attempt is counted before its credential is checked
 * (`countAttempt`), so requests sent at once, to one node or several, are counted as they arrive and at
 * most the threshold of them is ever checked. Each method is one atomic step. The module's Mongo store
 * (cli-server modules/throttle/stores) keeps one document per key, `{ _id: key, failures, windowEndsAt,
 * lockedUntil, locks, counted }`, and maps every method to one single-document update:
 * - countAttempt: `findOneAndUpdate({ _id }, <pipeline>, { upsert: true, returnDocument: 'after' })`, the
 *   pipeline computing `counted` (not locked, and the open window below `limit`) and then `failures` and
 *   `windowEndsAt` from it, retried on duplicate key 11000 (two nodes inserting the key at once);
 * - releaseAttempt: `findOneAndUpdate({ _id, windowEndsAt: <the attempt's>, failures: { $gt: 0 } }, { $inc: { failures: -1 } })`;
 * - lock: `findOneAndUpdate({ _id, lockedUntil: { $not: { $gt: now } }, windowEndsAt: { $gt: now }, failures: { $gte: minAttempts } },
 *   { $set: { lockedUntil: until, failures: 0, windowEndsAt: 0 }, $inc: { locks: 1 } })`, locked when it matched;
 * - get: `findOne({ _id })`; reset: `deleteOne({ _id })`. A TTL index may drop documents whose lock and window ended long ago.
 * Times are epoch milliseconds from the caller's clock: stores never read a clock of their own.
 */
export interface ThrottleState {
  /** Attempts counted in the current window (failed, or still being checked); 0 once the window has ended. */
  readonly failures: number;
  /** Epoch ms at which the current window ends (0: no window open). */
  readonly windowEndsAt: number;
  /** Epoch ms until which the key is locked; at or before `now` it is not locked. */
  readonly lockedUntil: number;
  /** Locks since the key's last success; each one doubles the next. */
  readonly locks: number;
}

/** The key's state after `countAttempt`, and whether the attempt was counted (and may be checked). */
export interface CountedAttempt extends ThrottleState {
  readonly counted: boolean;
}

export interface ThrottleStore {
  /** The key's state, or undefined for a key never seen (or reset). */
  get(key: string): Promise<ThrottleState | undefined>;

  /**
   * Counts one attempt, unless the key is locked at `now` or its open window already counts `limit`
   * attempts: then nothing changes and `counted` is false. A window opens at the first attempt and
   * lasts `windowMs`; an attempt after it ended opens a new one counting 1. A bounded store that cannot
   * take a new key without forgetting an active lock answers it as locked until it can (and does not keep it).
   */
  countAttempt(key: string, now: number, windowMs: number, limit: number): Promise<CountedAttempt>;

  /**
   * Gives back one attempt counted in the window ending at `windowEndsAt`, when that window is still the
   * key's and counts any (an attempt answered without its credential being checked). Never creates a key.
   */
  releaseAttempt(key: string, windowEndsAt: number): Promise<void>;

  /**
   * Locks the key until `until`, counts the lock and clears the window, but only if the key is not locked
   * at `now` and its open window counts at least `minAttempts`: a lock is never extended, and a key a
   * success forgot meanwhile is not locked. True when this call locked the key.
   */
  lock(key: string, now: number, until: number, minAttempts: number): Promise<boolean>;

  /** Forgets the key: attempts, lock and lock count (after a success). */
  reset(key: string): Promise<void>;
}
