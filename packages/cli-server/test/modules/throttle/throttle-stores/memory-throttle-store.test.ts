import { expect } from 'chai';
import { ThrottledError } from '@tessera/core';
import { AuthenticationThrottle, FailureLocks, type ThrottleSubject } from '@tessera/core/modules/throttle';
import { MemoryRequestRateStore } from '../../../../src/modules/throttle/stores/memory-request-rate-store.js';
import { MemoryThrottleStore } from '../../../../src/modules/throttle/stores/memory-throttle-store.js';
import { FixedClock, RecordingEvents } from '@tessera/testkit';

const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);
const MINUTE = 60_000;
/** Bounds no case here reaches: these cases are about the table's bound. */
const NO_LIMITS = { windowMs: MINUTE, threshold: 1000, inFlightCap: 1000 };

/** Admits one attempt; the attempts the key's window has in flight after it, 0 when it was not admitted. */
async function count(store: MemoryThrottleStore, key: string, now: number): Promise<number> {
  const state = await store.admit(key, now, NO_LIMITS);
  return state.admitted ? state.inFlight : 0;
}

/** Locks the key as a failure that reached the threshold does: one attempt admitted and failed, then the lock. */
async function lock(store: MemoryThrottleStore, key: string, now: number, until: number): Promise<boolean> {
  await store.failed(key, (await store.admit(key, now, NO_LIMITS)).windowEndsAt);
  return store.lock(key, now, until, 1);
}

describe('MemoryThrottleStore: bounded memory', () => {
  it('forgets the least recently written key when full, keeping the rest', async () => {
    const store = new MemoryThrottleStore({ maxKeys: 2 });
    await count(store, 'a', T0);
    await count(store, 'b', T0);
    await count(store, 'a', T0 + 1);
    await count(store, 'c', T0 + 2);
    expect(await store.get('b')).to.equal(undefined);
    expect(await store.get('a')).to.include({ inFlight: 2 });
    expect(await store.get('c')).to.include({ inFlight: 1 });
  });

  it('keeps a locked key when full, forgetting the oldest unlocked one instead', async () => {
    const store = new MemoryThrottleStore({ maxKeys: 2 });
    await lock(store, 'target', T0, T0 + MINUTE);
    await count(store, 'a', T0 + 1);
    await count(store, 'b', T0 + 2);
    expect(await store.get('target')).to.include({ lockedUntil: T0 + MINUTE });
    expect(await store.get('a')).to.equal(undefined);
    expect(await store.get('b')).to.include({ inFlight: 1 });
  });

  it('forgets the oldest unlocked key however many locked keys were written before it', async () => {
    const store = new MemoryThrottleStore({ maxKeys: 200 });
    for (let i = 0; i < 150; i++) await lock(store, `locked-${i}`, T0, T0 + MINUTE);
    for (let i = 0; i < 50; i++) await count(store, `open-${i}`, T0);
    for (let i = 0; i < 50; i++) await count(store, `new-${i}`, T0 + 1);
    for (let i = 0; i < 150; i++) expect(await store.get(`locked-${i}`), `locked-${i}`).to.include({ lockedUntil: T0 + MINUTE });
    for (let i = 0; i < 50; i++) expect(await store.get(`open-${i}`), `open-${i}`).to.equal(undefined);
    expect(await store.get('new-49')).to.include({ inFlight: 1 });
  });

  it('full of locks: a new key is counted as locked until the first lock ends, and is not kept; known keys go on', async () => {
    const store = new MemoryThrottleStore({ maxKeys: 2 });
    await lock(store, 'a', T0, T0 + 2 * MINUTE);
    await lock(store, 'b', T0, T0 + MINUTE);
    expect(await store.admit('new', T0 + 1, NO_LIMITS)).to.deep.equal({ admitted: false, failures: 0, inFlight: 0, windowEndsAt: 0, lockedUntil: T0 + MINUTE, locks: 0 });
    expect(await store.get('new')).to.equal(undefined);
    expect(await store.lock('new', T0 + 1, T0 + MINUTE, 0)).to.equal(false);
    expect(await store.get('a')).to.include({ lockedUntil: T0 + 2 * MINUTE });
    expect(await store.get('b')).to.include({ lockedUntil: T0 + MINUTE });
    expect(await store.admit('new', T0 + MINUTE - 1, NO_LIMITS)).to.include({ admitted: false, lockedUntil: T0 + MINUTE });

    // b's lock has ended: it is the one forgotten to make room; a stays locked.
    expect(await count(store, 'new', T0 + MINUTE)).to.equal(1);
    expect(await store.get('b')).to.equal(undefined);
    expect(await store.get('a')).to.include({ lockedUntil: T0 + 2 * MINUTE });
    expect(await store.get('new')).to.include({ inFlight: 1, lockedUntil: 0 });
  });

  it('a success frees room at once', async () => {
    const store = new MemoryThrottleStore({ maxKeys: 1 });
    await lock(store, 'a', T0, T0 + MINUTE);
    expect(await count(store, 'b', T0)).to.equal(0);
    await store.forget('a', T0);
    expect(await count(store, 'b', T0)).to.equal(1);
    expect(await store.get('b')).to.include({ inFlight: 1 });
  });

  it('a key locked again after its lock ended keeps its place among the locks', async () => {
    const store = new MemoryThrottleStore({ maxKeys: 2 });
    await lock(store, 'a', T0, T0 + MINUTE);
    await lock(store, 'a', T0 + MINUTE, T0 + 3 * MINUTE);
    await count(store, 'b', T0 + MINUTE);
    await count(store, 'c', T0 + 2 * MINUTE);
    expect(await store.get('a')).to.include({ lockedUntil: T0 + 3 * MINUTE, locks: 2 });
    expect(await store.get('b')).to.equal(undefined);
  });
});

// The throttle over a small memory store, its time from a clock the test moves: an attacker's burst of new usernames
describe('AuthenticationThrottle on a full MemoryThrottleStore', () => {
  const settings = { threshold: 1, rangeSeconds: 60, lockSeconds: 60, maxLockSeconds: 60 };
  const subject = (username: string): ThrottleSubject => ({ origin: { clientAddress: '203.0.113.7', requestId: username }, username });
  /** The seconds a locked subject is told to wait; undefined when it may try. */
  const retryAfter = async (attempt: Promise<void>): Promise<number | undefined> => {
    try {
      await attempt;
      return undefined;
    } catch (error) {
      if (error instanceof ThrottledError) return error.retryAfterSeconds;
      throw error;
    }
  };

  /** A request for the subject answered 401, when the throttle admits it. */
  const fail = async (throttle: AuthenticationThrottle, who: ThrottleSubject) => (await throttle.admit(who)).failed();
  /** A request for the subject answered otherwise, when the throttle admits it. */
  const answer = async (throttle: AuthenticationThrottle, who: ThrottleSubject) => (await throttle.admit(who)).answered();

  it('never forgets an active lock; new keys are refused until a lock ends, then take its room', async () => {
    const clock = new FixedClock(T0);
    const throttle = new AuthenticationThrottle(new FailureLocks(new MemoryThrottleStore({ maxKeys: 3 }), clock, settings), new RecordingEvents(), ['usernamePassword']);
    await fail(throttle, subject('victim'));
    clock.advanceSeconds(10);
    for (const name of ['flood-1', 'flood-2']) await fail(throttle, subject(name));
    for (let i = 3; i < 100; i++) expect(await retryAfter(fail(throttle, subject(`flood-${i}`))), `flood-${i}`).to.equal(50);
    expect(await retryAfter(answer(throttle, subject('victim')))).to.equal(50);

    clock.advanceSeconds(50);
    expect(await retryAfter(answer(throttle, subject('victim')))).to.equal(undefined);
    expect(await retryAfter(answer(throttle, subject('newcomer')))).to.equal(undefined);
    await fail(throttle, subject('newcomer'));
    expect(await retryAfter(answer(throttle, subject('newcomer')))).to.equal(60);
    expect(await retryAfter(answer(throttle, subject('flood-1')))).to.equal(10);
  });

  it('requests answered without a check, under any number of usernames, never push out a key\'s failures or lock count', async () => {
    const clock = new FixedClock(T0);
    const throttle = new AuthenticationThrottle(new FailureLocks(new MemoryThrottleStore({ maxKeys: 3 }), clock, { ...settings, threshold: 2 }), new RecordingEvents(), ['usernamePassword']);
    await fail(throttle, subject('victim'));
    for (let i = 0; i < 100; i++) await answer(throttle, subject(`no-password-${i}`));
    await fail(throttle, subject('victim'));
    expect(await retryAfter(answer(throttle, subject('victim'))), 'locked at its second failure').to.equal(60);
  });
});

describe('MemoryRequestRateStore: bounded memory', () => {
  it('forgets only buckets that have refilled; while the oldest is still draining, a new client waits until it has', async () => {
    const store = new MemoryRequestRateStore(2);
    expect(await store.take('drained', T0, 2, 1)).to.equal(0);
    expect(await store.take('drained', T0, 2, 1)).to.equal(0);
    expect(await store.take('other', T0 + 500, 2, 1)).to.equal(0);
    // A flood of new addresses neither gets in nor gives 'drained' its burst back.
    for (let i = 0; i < 10; i++) expect(await store.take(`flood-${i}`, T0 + 500, 2, 1), `flood-${i}`).to.equal(1500);
    expect(await store.take('drained', T0 + 500, 2, 1)).to.equal(500);
    // Once the oldest bucket is full again, forgetting it changes nothing: it makes room.
    expect(await store.take('newcomer', T0 + 3000, 2, 1)).to.equal(0);
    expect(await store.take('drained', T0 + 3000, 2, 1)).to.equal(0);
  });
});
