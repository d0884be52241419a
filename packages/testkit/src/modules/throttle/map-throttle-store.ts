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

/** The throttle's failures and attempts in flight in a map, held to the throttle store contract (packages/testkit/test/fakes-contracts.test.ts). */
export class MapThrottleStore implements ThrottleStore {
  readonly states = new Map<string, ThrottleState>();

  get(key: string): Promise<ThrottleState | undefined> {
    return Promise.resolve(this.states.get(key));
  }
  admit(key: string, now: number, limits: AdmissionLimits): Promise<Admission> {
    const state = this.states.get(key) ?? UNSEEN_THROTTLE_KEY;
    const admitted = admittedState(state, now, limits);
    if (admitted === undefined) return Promise.resolve({ ...state, admitted: false });
    this.states.set(key, admitted);
    return Promise.resolve({ ...admitted, admitted: true });
  }
  failed(key: string, windowEndsAt: number): Promise<ThrottleState | undefined> {
    const state = this.states.get(key);
    if (state?.windowEndsAt !== windowEndsAt) return Promise.resolve(undefined);
    const after = failedState(state);
    this.states.set(key, after);
    return Promise.resolve(after);
  }
  unjudged(key: string, windowEndsAt: number): Promise<void> {
    const state = this.states.get(key);
    if (state?.windowEndsAt !== windowEndsAt) return Promise.resolve();
    const after = unjudgedState(state);
    if (after === undefined) this.states.delete(key);
    else this.states.set(key, after);
    return Promise.resolve();
  }
  lock(key: string, now: number, until: number, minFailures: number): Promise<boolean> {
    const state = this.states.get(key);
    const locked = state && lockedState(state, now, until, minFailures);
    if (locked === undefined) return Promise.resolve(false);
    this.states.set(key, locked);
    return Promise.resolve(true);
  }
  forget(key: string, now: number, windowEndsAt?: number): Promise<void> {
    const state = this.states.get(key);
    if (state === undefined) return Promise.resolve();
    const kept = forgottenState(state, now, windowEndsAt);
    if (kept === undefined) this.states.delete(key);
    else this.states.set(key, kept);
    return Promise.resolve();
  }
}
