import TinyQueue from 'tinyqueue';
import {
  admittedState,
  failedState,
  forgottenState,
  lockedState,
  unjudgedState,
  UNSEEN_THROTTLE_KEY,
  type AdmissionLimits,
  type Admission,
  type ThrottleState,
  type ThrottleStore,
} from '@tessera/core/modules/throttle';

export interface MemoryThrottleStoreOptions {
  /**
   * Most keys held, so a flood of usernames cannot exhaust memory. When full, the least recently written
   * key that is not locked is forgotten; an active lock never is (a flood must not unlock its target).
   */
  readonly maxKeys?: number;
}

interface LockEnd {
  readonly until: number;
  readonly key: string;
}

/**
 * ThrottleStore in one process's memory. Every method finishes its read-modify-write without awaiting,
 * so concurrent requests of the same process see each other's counts, as atomic updates would.
 *
 * When every key held is locked, a new key cannot be counted without forgetting a lock. It is then
 * answered as locked until the first lock ends (when its room frees), so an attacker who filled the
 * table gets no unthrottled guesses out of it; the cost, new clients waiting while the table is full of
 * locks, only arises under such a flood, and `throttle.memory.maxKeys` bounds it.
 */
export class MemoryThrottleStore implements ThrottleStore {
  /** Keys not locked when last written, least recently written first: the first is forgotten first. */
  private readonly unlocked = new Map<string, ThrottleState>();
  /** Keys locked when last written; each moves to `unlocked` once its lock has ended. */
  private readonly locked = new Map<string, ThrottleState>();
  /** When each lock ends, earliest first; an entry whose key was forgotten or locked again since is skipped. */
  private lockEnds = new TinyQueue<LockEnd>([], (a, b) => a.until - b.until);
  private readonly maxKeys: number;

  constructor(options: MemoryThrottleStoreOptions = {}) {
    this.maxKeys = options.maxKeys ?? 100_000;
  }

  get(key: string): Promise<ThrottleState | undefined> {
    return Promise.resolve(this.stateOf(key));
  }

  admit(key: string, now: number, limits: AdmissionLimits): Promise<Admission> {
    const state = this.stateOf(key) ?? UNSEEN_THROTTLE_KEY;
    const admitted = admittedState(state, now, limits);
    if (admitted === undefined) return Promise.resolve({ ...state, admitted: false });
    // No room without forgetting a lock: the new key is locked until the earliest lock ends.
    if (!this.put(key, admitted, now)) return Promise.resolve({ ...UNSEEN_THROTTLE_KEY, lockedUntil: this.earliestLockEnd(), admitted: false });
    return Promise.resolve({ ...admitted, admitted: true });
  }

  failed(key: string, windowEndsAt: number): Promise<ThrottleState | undefined> {
    const state = this.stateOf(key);
    if (state?.windowEndsAt !== windowEndsAt) return Promise.resolve(undefined);
    const after = failedState(state);
    this.replace(key, after);
    return Promise.resolve(after);
  }

  unjudged(key: string, windowEndsAt: number): Promise<void> {
    const state = this.stateOf(key);
    if (state?.windowEndsAt !== windowEndsAt) return Promise.resolve();
    const after = unjudgedState(state);
    // A key left holding nothing is dropped: requests answered without a check must not fill the table (evicting others' failures and lock counts).
    if (after === undefined) {
      this.unlocked.delete(key);
      this.locked.delete(key);
    } else if (state.inFlight > 0) this.replace(key, after);
    return Promise.resolve();
  }

  lock(key: string, now: number, until: number, minFailures: number): Promise<boolean> {
    const state = this.stateOf(key);
    const locked = state && lockedState(state, now, until, minFailures);
    return Promise.resolve(locked !== undefined && this.put(key, locked, now));
  }

  forget(key: string, now: number, windowEndsAt?: number): Promise<void> {
    const state = this.stateOf(key);
    if (state === undefined) return Promise.resolve();
    this.unlocked.delete(key);
    this.locked.delete(key);
    // Others of the window still in flight settle in it: it stays, cleared, for them.
    const kept = forgottenState(state, now, windowEndsAt);
    if (kept !== undefined) this.unlocked.set(key, kept);
    return Promise.resolve();
  }

  private get size(): number {
    return this.unlocked.size + this.locked.size;
  }

  private stateOf(key: string): ThrottleState | undefined {
    return this.unlocked.get(key) ?? this.locked.get(key);
  }

  /** Settles an attempt in place: no write that makes the key recent, nor one that moves it between the tables. */
  private replace(key: string, state: ThrottleState): void {
    if (this.unlocked.has(key)) this.unlocked.set(key, state);
    else this.locked.set(key, state);
  }

  /** Writes the key as the most recent; false when it is new and there is no room without forgetting a lock. */
  private put(key: string, state: ThrottleState, now: number): boolean {
    const known = this.unlocked.delete(key) || this.locked.delete(key);
    if (!known && !this.makeRoom(now)) return false;
    if (state.lockedUntil <= now) {
      this.unlocked.set(key, state);
      return true;
    }
    this.locked.set(key, state);
    this.lockEnds.push({ until: state.lockedUntil, key });
    // Skipped entries of keys forgotten or locked again pile up only while their locks last; bound them anyway.
    if (this.lockEnds.length > 2 * this.maxKeys) this.lockEnds = new TinyQueue([...this.locked].map(([lockedKey, { lockedUntil }]) => ({ until: lockedUntil, key: lockedKey })), (a, b) => a.until - b.until);
    return true;
  }

  /** Forgets the least recently written unlocked key when full; false when every key is still locked. */
  private makeRoom(now: number): boolean {
    if (this.size < this.maxKeys) return true;
    this.releaseEndedLocks(now);
    const oldest = this.unlocked.keys().next();
    if (oldest.done) return false;
    this.unlocked.delete(oldest.value);
    return true;
  }

  private releaseEndedLocks(now: number): void {
    for (let end = this.lockEnds.peek(); end !== undefined && end.until <= now; end = this.lockEnds.peek()) {
      this.lockEnds.pop();
      const state = this.locked.get(end.key);
      if (state?.lockedUntil !== end.until) continue;
      this.locked.delete(end.key);
      this.unlocked.set(end.key, state);
    }
  }

  /** The end of the earliest lock held (0 without any): when a new key will find room. */
  private earliestLockEnd(): number {
    for (let end = this.lockEnds.peek(); end !== undefined; end = this.lockEnds.peek()) {
      if (this.locked.get(end.key)?.lockedUntil === end.until) return end.until;
      this.lockEnds.pop();
    }
    return 0;
  }
}
