import TinyQueue from 'tinyqueue';
import type { AdmissionLimits, Admission, ThrottleState, ThrottleStore } from '@tessera/core/modules/throttle';

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

const NEW_KEY: ThrottleState = { failures: 0, inFlight: 0, windowEndsAt: 0, lockedUntil: 0, locks: 0 };

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

  admit(key: string, now: number, { windowMs, threshold, inFlightCap }: AdmissionLimits): Promise<Admission> {
    const state = this.stateOf(key) ?? NEW_KEY;
    const open = state.windowEndsAt > now;
    const [failures, inFlight] = open ? [state.failures, state.inFlight] : [0, 0];
    const failing = (failures > 0 || state.locks > 0) && failures + inFlight >= threshold;
    if (state.lockedUntil > now || failing || inFlight >= inFlightCap) return Promise.resolve({ ...state, admitted: false });
    const admitted = { ...state, failures, inFlight: inFlight + 1, windowEndsAt: open ? state.windowEndsAt : now + windowMs };
    // No room without forgetting a lock: the new key is locked until the earliest lock ends.
    if (!this.put(key, admitted, now)) return Promise.resolve({ ...NEW_KEY, lockedUntil: this.earliestLockEnd(), admitted: false });
    return Promise.resolve({ ...admitted, admitted: true });
  }

  failed(key: string, windowEndsAt: number): Promise<ThrottleState | undefined> {
    const state = this.stateOf(key);
    if (state?.windowEndsAt !== windowEndsAt) return Promise.resolve(undefined);
    const after = { ...state, inFlight: Math.max(0, state.inFlight - 1), failures: state.failures + 1 };
    this.replace(key, after);
    return Promise.resolve(after);
  }

  unjudged(key: string, windowEndsAt: number): Promise<void> {
    const state = this.stateOf(key);
    if (state?.windowEndsAt !== windowEndsAt) return Promise.resolve();
    const after = { ...state, inFlight: Math.max(0, state.inFlight - 1) };
    // A key left holding nothing is dropped: requests answered without a check must not fill the table (evicting others' failures and lock counts).
    if (isEmpty(after)) {
      this.unlocked.delete(key);
      this.locked.delete(key);
    } else if (state.inFlight > 0) this.replace(key, after);
    return Promise.resolve();
  }

  lock(key: string, now: number, until: number, minFailures: number): Promise<boolean> {
    const state = this.stateOf(key);
    if (state === undefined || state.lockedUntil > now || state.windowEndsAt <= now || state.failures < minFailures) return Promise.resolve(false);
    return Promise.resolve(this.put(key, { ...state, failures: 0, lockedUntil: until, locks: state.locks + 1 }, now));
  }

  forget(key: string, now: number, windowEndsAt?: number): Promise<void> {
    const state = this.stateOf(key);
    if (state === undefined) return Promise.resolve();
    const own = windowEndsAt !== undefined && state.windowEndsAt === windowEndsAt ? 1 : 0;
    const inFlight = state.windowEndsAt > now ? Math.max(0, state.inFlight - own) : 0;
    this.unlocked.delete(key);
    this.locked.delete(key);
    // Others of the window still in flight settle in it: it stays, cleared, for them.
    if (inFlight > 0) this.unlocked.set(key, { ...state, failures: 0, inFlight, lockedUntil: 0, locks: 0 });
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

/** No failure, lock count or attempt in flight: nothing a later attempt would be judged by. */
function isEmpty({ failures, inFlight, locks }: ThrottleState): boolean {
  return failures === 0 && inFlight === 0 && locks === 0;
}
