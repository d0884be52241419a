/**
 * Failure, in-flight and lock state per throttle key (client address group + lower-cased username, or a
 * client's: docs/protocol.md §5), shared by every node. An attempt is admitted before its credential is
 * checked (`admit`), in one atomic step that counts it in flight or refuses it, so requests sent at once,
 * to one node or several, are judged against each other's counts: a key with failures gets no more than
 * `threshold` of them (failed or in flight) checked, a key without failures never has a right credential
 * refused below `inFlightCap`. Each method is one atomic step (forget: see below). The module's Mongo store
 * (cli-server modules/throttle/stores) keeps one document per key, `{ _id: key, failures, inFlight,
 * windowEndsAt, lockedUntil, locks, admitted }`, and maps every method to single-document updates:
 * - admit: `findOneAndUpdate({ _id }, <pipeline>, { upsert: true, returnDocument: 'after' })`, the pipeline
 *   computing `admitted` and then the counts and `windowEndsAt` from it, retried on duplicate key 11000
 *   (two nodes inserting the key at once);
 * - failed: `findOneAndUpdate({ _id, windowEndsAt: <the attempt's> }, [<inFlight - 1 but not below 0, failures + 1>], { returnDocument: 'after' })`;
 * - unjudged: `deleteOne({ _id, windowEndsAt: <the attempt's>, inFlight: { $lte: 1 }, failures: 0, locks: 0 })`, and when that
 *   deleted nothing, `findOneAndUpdate({ _id, windowEndsAt: <the attempt's>, inFlight: { $gt: 0 } }, { $inc: { inFlight: -1 } })`;
 * - lock: `findOneAndUpdate({ _id, lockedUntil: { $not: { $gt: now } }, windowEndsAt: { $gt: now }, failures: { $gte: minFailures } },
 *   { $set: { lockedUntil: until, failures: 0 }, $inc: { locks: 1 } })`, locked when it matched;
 * - forget: `deleteOne({ _id, $or: [<window ended>, <nothing in flight>, <only this attempt in flight>] })`, and
 *   when that deleted nothing, `findOneAndUpdate({ _id }, [<failures, locks, lockedUntil cleared; this attempt out of inFlight>])`;
 * - get: `findOne({ _id })`. A TTL index may drop documents whose lock and window ended long ago.
 * Times are epoch milliseconds from the caller's clock: stores never read a clock of their own. The end
 * of the window an attempt was admitted in (`windowEndsAt`) identifies that window: an attempt settles
 * only in it, so a settle never touches a later window's counts nor recreates a forgotten key.
 */
export interface ThrottleState {
  /** Failed attempts in the current window (since its last lock); 0 once the window has ended. */
  readonly failures: number;
  /** Attempts admitted in the current window whose outcome is not known yet; they end with the window. */
  readonly inFlight: number;
  /** Epoch ms at which the current window ends (0: no window open). */
  readonly windowEndsAt: number;
  /** Epoch ms until which the key is locked; at or before `now` it is not locked. */
  readonly lockedUntil: number;
  /** Locks since the key's last success; each one doubles the next. */
  readonly locks: number;
}

/** What `admit` judges an attempt by. */
export interface AdmissionLimits {
  /** A window's length: it opens at the first attempt admitted after the last one ended. */
  readonly windowMs: number;
  /** Failed and in-flight attempts a key with failures (or locks) may have in its window. */
  readonly threshold: number;
  /** Attempts of one key in flight at once, whatever its failures. */
  readonly inFlightCap: number;
}

/** The key's state after `admit`, and whether the attempt was admitted (counted in flight; its credential may be checked). */
export interface Admission extends ThrottleState {
  readonly admitted: boolean;
}

export interface ThrottleStore {
  /** The key's state, or undefined for a key never seen (or forgotten). */
  get(key: string): Promise<ThrottleState | undefined>;

  /**
   * Admits one attempt, counting it in flight, unless (then nothing changes and `admitted` is false) the
   * key is locked at `now`; or it has failures or locks and its window's failures plus attempts in flight
   * reach `threshold`; or its attempts in flight reach `inFlightCap`. An attempt after the window ended
   * opens a new one of `windowMs`, counting no failure and only itself in flight. A bounded store that
   * cannot take a new key without forgetting an active lock answers it as locked until it can (and does not keep it).
   */
  admit(key: string, now: number, limits: AdmissionLimits): Promise<Admission>;

  /**
   * An attempt admitted in the window ending at `windowEndsAt` failed: while that window is the key's,
   * it leaves the attempts in flight (never below 0) and counts as a failure; the state after. Undefined
   * (and nothing changed) when the key no longer has that window (forgotten, or a later window).
   */
  failed(key: string, windowEndsAt: number): Promise<ThrottleState | undefined>;

  /**
   * An attempt admitted in the window ending at `windowEndsAt` was answered without a check: it leaves the
   * attempts in flight, while that window is the key's (never below 0). A key it leaves with no failure, lock
   * count nor attempt in flight is deleted, so requests answered without a check keep no key (in memory they
   * would push out other keys' failures and lock counts; elsewhere each would be kept for a day).
   */
  unjudged(key: string, windowEndsAt: number): Promise<void>;

  /**
   * Locks the key until `until`, counts the lock and clears the window's failures (the window and its
   * attempts in flight stay, to settle), but only if the key is not locked at `now` and its open window
   * counts at least `minFailures`: a lock is never extended, and a key a success forgot meanwhile is not locked.
   * True when this call locked the key.
   */
  lock(key: string, now: number, until: number, minFailures: number): Promise<boolean>;

  /**
   * A success: forgets the key's failures, lock and lock count. An attempt admitted in the window ending
   * at `windowEndsAt` (when given, the success's own) leaves the attempts in flight. A key left with none
   * in flight (or whose window ended) is deleted; one with others in flight keeps its window for them.
   */
  forget(key: string, now: number, windowEndsAt?: number): Promise<void>;
}

/*
 * The port's rules on one key's state, for the stores that keep states in this process (the memory
 * store, the testkit's map): each gives the state the method leaves, or undefined where it leaves none.
 * Redis and MongoDB apply the same rules on their servers (a Lua script, an update pipeline).
 */

/** A key never seen: nothing counted, no lock. */
export const UNSEEN_THROTTLE_KEY: ThrottleState = { failures: 0, inFlight: 0, windowEndsAt: 0, lockedUntil: 0, locks: 0 };

/** `admit`: the state with the attempt counted in flight (in the open window, or one it opens), or undefined when the attempt is refused. */
export function admittedState(state: ThrottleState, now: number, { windowMs, threshold, inFlightCap }: AdmissionLimits): ThrottleState | undefined {
  const open = state.windowEndsAt > now;
  const [failures, inFlight] = open ? [state.failures, state.inFlight] : [0, 0];
  const failing = (failures > 0 || state.locks > 0) && failures + inFlight >= threshold;
  if (state.lockedUntil > now || failing || inFlight >= inFlightCap) return undefined;
  return { ...state, failures, inFlight: inFlight + 1, windowEndsAt: open ? state.windowEndsAt : now + windowMs };
}

/** `failed`, on a state in the attempt's window: one less in flight (never below 0), one more failure. */
export function failedState(state: ThrottleState): ThrottleState {
  return { ...state, inFlight: Math.max(0, state.inFlight - 1), failures: state.failures + 1 };
}

/** `unjudged`, on a state in the attempt's window: one less in flight (never below 0); undefined when the key is left holding nothing (deleted). */
export function unjudgedState(state: ThrottleState): ThrottleState | undefined {
  const after = { ...state, inFlight: Math.max(0, state.inFlight - 1) };
  return after.failures === 0 && after.inFlight === 0 && after.locks === 0 ? undefined : after;
}

/** Whether `lock` locks the key at `now`: not locked already, its window open and counting at least `minFailures`. */
export function locksNow(state: ThrottleState, now: number, minFailures: number): boolean {
  return state.lockedUntil <= now && state.windowEndsAt > now && state.failures >= minFailures;
}

/** `lock`: the locked state, or undefined when the key may not be locked (locksNow). */
export function lockedState(state: ThrottleState, now: number, until: number, minFailures: number): ThrottleState | undefined {
  if (!locksNow(state, now, minFailures)) return undefined;
  return { ...state, failures: 0, lockedUntil: until, locks: state.locks + 1 };
}

/** `forget`: the cleared state kept for the attempts of an open window still in flight (without the success's own), or undefined when the key is deleted. */
export function forgottenState(state: ThrottleState, now: number, windowEndsAt?: number): ThrottleState | undefined {
  const own = windowEndsAt !== undefined && state.windowEndsAt === windowEndsAt ? 1 : 0;
  const inFlight = state.windowEndsAt > now ? Math.max(0, state.inFlight - own) : 0;
  return inFlight === 0 ? undefined : { ...state, failures: 0, inFlight, lockedUntil: 0, locks: 0 };
}
