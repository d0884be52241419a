import type { ThrottleState, ThrottleStore } from '@tessera/core';

export interface MemoryThrottleStoreOptions {
  /**
   * Most keys held, so a flood of usernames cannot exhaust memory. When full, the least recently written
   * key that is not locked is forgotten (among the oldest few, so a flood cannot unlock its target either).
   */
  readonly maxKeys?: number;
}

const EVICTION_SCAN = 64;
const NEW_KEY: ThrottleState = { failures: 0, windowEndsAt: 0, lockedUntil: 0, locks: 0 };

/**
 * ThrottleStore in one process's memory. Every method finishes its read-modify-write without awaiting,
 * so concurrent requests of the same process see each other's counts, as atomic updates would.
 */
export class MemoryThrottleStore implements ThrottleStore {
  private readonly states = new Map<string, ThrottleState>();
  private readonly maxKeys: number;

  constructor(options: MemoryThrottleStoreOptions = {}) {
    this.maxKeys = options.maxKeys ?? 100_000;
  }

  get(key: string): Promise<ThrottleState | undefined> {
    return Promise.resolve(this.states.get(key));
  }

  recordFailure(key: string, now: number, windowMs: number): Promise<number> {
    const state = this.states.get(key) ?? NEW_KEY;
    const open = state.windowEndsAt > now;
    const failures = open ? state.failures + 1 : 1;
    this.put(key, { ...state, failures, windowEndsAt: open ? state.windowEndsAt : now + windowMs }, now);
    return Promise.resolve(failures);
  }

  lock(key: string, now: number, until: number): Promise<boolean> {
    const state = this.states.get(key) ?? NEW_KEY;
    if (state.lockedUntil > now) return Promise.resolve(false);
    this.put(key, { failures: 0, windowEndsAt: 0, lockedUntil: until, locks: state.locks + 1 }, now);
    return Promise.resolve(true);
  }

  reset(key: string): Promise<void> {
    this.states.delete(key);
    return Promise.resolve();
  }

  /** Keys in insertion order, refreshed on every write: the first is the least recently written. */
  private put(key: string, state: ThrottleState, now: number): void {
    this.states.delete(key);
    if (this.states.size >= this.maxKeys) this.evictOne(now);
    this.states.set(key, state);
  }

  /** The oldest unlocked key among the first EVICTION_SCAN; if all of those are locked, the oldest. */
  private evictOne(now: number): void {
    let victim: string | undefined;
    let scanned = 0;
    for (const [key, state] of this.states) {
      victim ??= key;
      if (state.lockedUntil <= now) {
        victim = key;
        break;
      }
      if (++scanned >= EVICTION_SCAN) break;
    }
    if (victim !== undefined) this.states.delete(victim);
  }
}
