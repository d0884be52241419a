import type { ThrottleState, ThrottleStore } from '@tessera/core/modules/throttle';

/** The throttle's failure counts in a map, held to the throttle store contract (packages/testkit/test/fakes-contracts.test.ts). */
export class MapThrottleStore implements ThrottleStore {
  readonly states = new Map<string, ThrottleState>();

  get(key: string): Promise<ThrottleState | undefined> {
    return Promise.resolve(this.states.get(key));
  }
  recordFailure(key: string, now: number, windowMs: number): Promise<number> {
    const state = this.states.get(key) ?? { failures: 0, windowEndsAt: 0, lockedUntil: 0, locks: 0 };
    const open = state.windowEndsAt > now;
    const failures = open ? state.failures + 1 : 1;
    this.states.set(key, { ...state, failures, windowEndsAt: open ? state.windowEndsAt : now + windowMs });
    return Promise.resolve(failures);
  }
  lock(key: string, now: number, until: number): Promise<boolean> {
    const state = this.states.get(key);
    if (state && state.lockedUntil > now) return Promise.resolve(false);
    this.states.set(key, { failures: 0, windowEndsAt: 0, lockedUntil: until, locks: (state?.locks ?? 0) + 1 });
    return Promise.resolve(true);
  }
  reset(key: string): Promise<void> {
    this.states.delete(key);
    return Promise.resolve();
  }
}
