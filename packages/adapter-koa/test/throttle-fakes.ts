import type { PasswordHasher, RequestRateStore, ThrottleState, ThrottleStore, UserDirectory, UserRecord } from '@tessera/core';

/** The smallest ThrottleStore for route tests; adapters pass the testkit contract instead. */
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

/** A spy standing in for argon2: a "hash" is `hashed:<password>`, and every verification is counted. */
export class CountingHasher implements PasswordHasher {
  verifications = 0;
  hash(password: string): Promise<string> {
    return Promise.resolve(`hashed:${password}`);
  }
  verify(phc: string, password: string): Promise<boolean> {
    this.verifications += 1;
    return Promise.resolve(phc === `hashed:${password}`);
  }
}

export class TableDirectory implements UserDirectory {
  constructor(private readonly users: readonly UserRecord[]) {}
  findByUsername(username: string): Promise<UserRecord | undefined> {
    return Promise.resolve(this.users.find((user) => user.username === username));
  }
}

/** A bucket per key holding `capacity` tokens that never refill; an empty one answers a 1.5 s wait. */
export class DrainingRateStore implements RequestRateStore {
  readonly taken = new Map<string, number>();
  take(key: string, _now: number, capacity: number): Promise<number> {
    const taken = this.taken.get(key) ?? 0;
    if (taken >= capacity) return Promise.resolve(1500);
    this.taken.set(key, taken + 1);
    return Promise.resolve(0);
  }
}
