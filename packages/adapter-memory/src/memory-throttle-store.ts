import type { ThrottleState, ThrottleStore } from '@tessera/core';

export interface MemoryThrottleStoreOptions {
  /** Most keys held; when full the oldest key is forgotten, so a flood of usernames cannot exhaust memory. */
  readonly maxKeys?: number;
}

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
    this.put(key, { ...state, failures, windowEndsAt: open ? state.windowEndsAt : now + windowMs });
    return Promise.resolve(failures);
  }

  lock(key: string, now: number, until: number): Promise<boolean> {
    const state = this.states.get(key) ?? NEW_KEY;
    if (state.lockedUntil > now) return Promise.resolve(false);
    this.put(key, { failures: 0, windowEndsAt: 0, lockedUntil: until, locks: state.locks + 1 });
    return Promise.resolve(true);
  }

  reset(key: string): Promise<void> {
    this.states.delete(key);
    return Promise.resolve();
  }

  /** Keys in insertion order, refreshed on every write: the first is the least recently written. */
  private put(key: string, state: ThrottleState): void {
    this.states.delete(key);
    if (this.states.size >= this.maxKeys) {
      const oldest = this.states.keys().next();
      if (!oldest.done) this.states.delete(oldest.value);
    }
    this.states.set(key, state);
  }
}
