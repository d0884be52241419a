import type { AdmissionLimits, Admission, ThrottleState, ThrottleStore } from '@tessera/core/modules/throttle';

/** The throttle's failures and attempts in flight in a map, held to the throttle store contract (packages/testkit/test/fakes-contracts.test.ts). */
export class MapThrottleStore implements ThrottleStore {
  readonly states = new Map<string, ThrottleState>();

  get(key: string): Promise<ThrottleState | undefined> {
    return Promise.resolve(this.states.get(key));
  }
  admit(key: string, now: number, { windowMs, threshold, inFlightCap }: AdmissionLimits): Promise<Admission> {
    const state = this.states.get(key) ?? { failures: 0, inFlight: 0, windowEndsAt: 0, lockedUntil: 0, locks: 0 };
    const open = state.windowEndsAt > now;
    const [failures, inFlight] = open ? [state.failures, state.inFlight] : [0, 0];
    const failing = (failures > 0 || state.locks > 0) && failures + inFlight >= threshold;
    if (state.lockedUntil > now || failing || inFlight >= inFlightCap) return Promise.resolve({ ...state, admitted: false });
    const admitted = { ...state, failures, inFlight: inFlight + 1, windowEndsAt: open ? state.windowEndsAt : now + windowMs };
    this.states.set(key, admitted);
    return Promise.resolve({ ...admitted, admitted: true });
  }
  failed(key: string, windowEndsAt: number): Promise<ThrottleState | undefined> {
    const state = this.states.get(key);
    if (state?.windowEndsAt !== windowEndsAt) return Promise.resolve(undefined);
    const after = { ...state, inFlight: Math.max(0, state.inFlight - 1), failures: state.failures + 1 };
    this.states.set(key, after);
    return Promise.resolve(after);
  }
  unjudged(key: string, windowEndsAt: number): Promise<void> {
    const state = this.states.get(key);
    if (state?.windowEndsAt !== windowEndsAt) return Promise.resolve();
    const after = { ...state, inFlight: Math.max(0, state.inFlight - 1) };
    if (after.failures === 0 && after.inFlight === 0 && after.locks === 0) this.states.delete(key);
    else this.states.set(key, after);
    return Promise.resolve();
  }
  lock(key: string, now: number, until: number, minFailures: number): Promise<boolean> {
    const state = this.states.get(key);
    if (state === undefined || state.lockedUntil > now || state.windowEndsAt <= now || state.failures < minFailures) return Promise.resolve(false);
    this.states.set(key, { ...state, failures: 0, lockedUntil: until, locks: state.locks + 1 });
    return Promise.resolve(true);
  }
  forget(key: string, now: number, windowEndsAt?: number): Promise<void> {
    const state = this.states.get(key);
    if (state === undefined) return Promise.resolve();
    const own = windowEndsAt !== undefined && state.windowEndsAt === windowEndsAt ? 1 : 0;
    const inFlight = state.windowEndsAt > now ? Math.max(0, state.inFlight - own) : 0;
    if (inFlight === 0) this.states.delete(key);
    else this.states.set(key, { ...state, failures: 0, inFlight, lockedUntil: 0, locks: 0 });
    return Promise.resolve();
  }
}
