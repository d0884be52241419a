import type { CountedAttempt, ThrottleState, ThrottleStore } from '@tessera/core/modules/throttle';

/** The throttle's attempt counts in a map, held to the throttle store contract (packages/testkit/test/fakes-contracts.test.ts). */
export class MapThrottleStore implements ThrottleStore {
  readonly states = new Map<string, ThrottleState>();

  get(key: string): Promise<ThrottleState | undefined> {
    return Promise.resolve(this.states.get(key));
  }
  countAttempt(key: string, now: number, windowMs: number, limit: number): Promise<CountedAttempt> {
    const state = this.states.get(key) ?? { failures: 0, windowEndsAt: 0, lockedUntil: 0, locks: 0 };
    const open = state.windowEndsAt > now;
    if (state.lockedUntil > now || (open && state.failures >= limit)) return Promise.resolve({ ...state, counted: false });
    const counted = { ...state, failures: open ? state.failures + 1 : 1, windowEndsAt: open ? state.windowEndsAt : now + windowMs };
    this.states.set(key, counted);
    return Promise.resolve({ ...counted, counted: true });
  }
  releaseAttempt(key: string, windowEndsAt: number): Promise<void> {
    const state = this.states.get(key);
    if (state && state.windowEndsAt === windowEndsAt && state.failures > 0) this.states.set(key, { ...state, failures: state.failures - 1 });
    return Promise.resolve();
  }
  lock(key: string, now: number, until: number, minAttempts: number): Promise<boolean> {
    const state = this.states.get(key);
    if (state === undefined || state.lockedUntil > now || state.windowEndsAt <= now || state.failures < minAttempts) return Promise.resolve(false);
    this.states.set(key, { failures: 0, windowEndsAt: 0, lockedUntil: until, locks: state.locks + 1 });
    return Promise.resolve(true);
  }
  reset(key: string): Promise<void> {
    this.states.delete(key);
    return Promise.resolve();
  }
}
