import { expect } from 'chai';
import type { AdmissionLimits, ThrottleStore } from '@tessera/core/modules/throttle';
import { twoNodes, type AnotherNode } from '../../another-node.js';

export type ThrottleStoreFactory = () => ThrottleStore | Promise<ThrottleStore>;

const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);
const MINUTE = 60_000;
const KEY = '203.0.113.9 casuser';
/** Bounds no case reaches, where the case is about counting. */
const NO_LIMITS: AdmissionLimits = { windowMs: MINUTE, threshold: 1000, inFlightCap: 1000 };
const NEW_KEY = { failures: 0, inFlight: 0, windowEndsAt: 0, lockedUntil: 0, locks: 0 };

/** The ThrottleStore contract (core's modules/throttle/throttle-store.ts): times are passed in, so no clock moves. */
export function describeThrottleStore(name: string, factory: ThrottleStoreFactory, anotherNode?: AnotherNode<ThrottleStore>): void {
  describe(`ThrottleStore contract: ${name}`, () => {
    const admit = (store: ThrottleStore, now: number, limits: Partial<AdmissionLimits> = {}) => store.admit(KEY, now, { ...NO_LIMITS, ...limits });
    /** Admits `times` attempts at `now` and fails them all, in their window. */
    const failTimes = async (store: ThrottleStore, now: number, times: number) => {
      for (let i = 0; i < times; i++) await store.failed(KEY, (await admit(store, now)).windowEndsAt);
    };

    it('knows nothing of a key never seen', async () => {
      expect(await (await factory()).get(KEY)).to.equal(undefined);
    });

    it('admits attempts in flight within the window that opened at the first one, and starts again after it with none', async () => {
      const store = await factory();
      expect(await admit(store, T0)).to.deep.equal({ admitted: true, ...NEW_KEY, inFlight: 1, windowEndsAt: T0 + MINUTE });
      expect(await admit(store, T0 + 30_000)).to.include({ admitted: true, inFlight: 2 });
      await store.failed(KEY, T0 + MINUTE);
      expect(await admit(store, T0 + MINUTE - 1)).to.include({ admitted: true, failures: 1, inFlight: 2, windowEndsAt: T0 + MINUTE });
      expect(await store.get(KEY)).to.deep.equal({ ...NEW_KEY, failures: 1, inFlight: 2, windowEndsAt: T0 + MINUTE });
      // In-flight counts of a window end with it (a node that died holding one blocks nothing after).
      expect(await admit(store, T0 + MINUTE)).to.deep.equal({ admitted: true, ...NEW_KEY, inFlight: 1, windowEndsAt: T0 + 2 * MINUTE });
      expect(await store.get(KEY)).to.include({ failures: 0, inFlight: 1, windowEndsAt: T0 + 2 * MINUTE });
    });

    it('admits any number of attempts at once on a key without failures, up to the in-flight cap', async () => {
      const store = await factory();
      for (let i = 1; i <= 8; i++) expect(await admit(store, T0, { threshold: 3, inFlightCap: 8 })).to.include({ admitted: true, inFlight: i });
      expect(await admit(store, T0, { threshold: 3, inFlightCap: 8 })).to.deep.equal({ admitted: false, ...NEW_KEY, inFlight: 8, windowEndsAt: T0 + MINUTE });
      await store.unjudged(KEY, T0 + MINUTE);
      expect(await admit(store, T0, { threshold: 3, inFlightCap: 8 }), 'one settled').to.include({ admitted: true, inFlight: 8 });
    });

    it('admits no attempt once the failures plus attempts in flight of a key with failures reach the threshold, and admits again in the next window', async () => {
      const store = await factory();
      const limits = { threshold: 3 };
      await failTimes(store, T0, 1);
      expect(await admit(store, T0 + 1, limits)).to.include({ admitted: true, failures: 1, inFlight: 1 });
      expect(await admit(store, T0 + 2, limits)).to.include({ admitted: true, failures: 1, inFlight: 2 });
      expect(await admit(store, T0 + 3, limits)).to.deep.equal({ admitted: false, ...NEW_KEY, failures: 1, inFlight: 2, windowEndsAt: T0 + MINUTE });
      await store.unjudged(KEY, T0 + MINUTE);
      expect(await admit(store, T0 + 4, limits), 'one given back').to.include({ admitted: true, failures: 1, inFlight: 2 });
      await store.failed(KEY, T0 + MINUTE);
      await store.failed(KEY, T0 + MINUTE);
      expect(await admit(store, T0 + 5, limits)).to.include({ admitted: false, failures: 3, inFlight: 0 });
      expect(await admit(store, T0 + MINUTE, limits)).to.include({ admitted: true, failures: 0, inFlight: 1, windowEndsAt: T0 + 2 * MINUTE });
    });

    it('keeps keys apart', async () => {
      const store = await factory();
      await admit(store, T0);
      expect(await store.admit('203.0.113.9 alice', T0, NO_LIMITS)).to.include({ admitted: true, inFlight: 1 });
      expect(await store.admit('203.0.113.9', T0, NO_LIMITS)).to.include({ admitted: true, inFlight: 1 });
    });

    it('admits exactly the cap of many concurrent attempts on a clean key, and threshold minus the failures on a failing one', async () => {
      const store = await factory();
      const answers = await Promise.all(Array.from({ length: 20 }, () => admit(store, T0, { threshold: 3, inFlightCap: 7 })));
      expect(answers.filter(({ admitted }) => admitted).map(({ inFlight }) => inFlight).sort((a, b) => a - b)).to.deep.equal([1, 2, 3, 4, 5, 6, 7]);
      for (let i = 0; i < 7; i++) await store.unjudged(KEY, T0 + MINUTE);
      await store.failed(KEY, (await admit(store, T0)).windowEndsAt);
      const failing = await Promise.all(Array.from({ length: 20 }, () => admit(store, T0, { threshold: 3, inFlightCap: 7 })));
      expect(failing.filter(({ admitted }) => admitted)).to.have.length(2);
      expect(await store.get(KEY)).to.include({ failures: 1, inFlight: 2 });
    });

    it('settles an attempt only in the window it was admitted in, never below 0, never creating a key', async () => {
      const store = await factory();
      const { windowEndsAt } = await admit(store, T0);
      await admit(store, T0);
      await store.unjudged(KEY, windowEndsAt);
      expect(await store.failed(KEY, windowEndsAt)).to.include({ inFlight: 0, failures: 1 });
      await store.unjudged(KEY, windowEndsAt);
      expect(await store.get(KEY)).to.include({ inFlight: 0, failures: 1 });
      expect(await store.failed(KEY, windowEndsAt), 'a failure told twice').to.include({ inFlight: 0, failures: 2 });
      await admit(store, T0 + MINUTE);
      expect(await store.failed(KEY, windowEndsAt), 'a window since ended').to.equal(undefined);
      await store.unjudged(KEY, windowEndsAt);
      expect(await store.get(KEY)).to.include({ failures: 0, inFlight: 1, windowEndsAt: T0 + 2 * MINUTE });
      expect(await store.failed('198.51.100.1', windowEndsAt)).to.equal(undefined);
      await store.unjudged('198.51.100.1', windowEndsAt);
      expect(await store.get('198.51.100.1')).to.equal(undefined);
    });

    it('deletes a key an attempt answered without a check leaves with no failure, lock count nor attempt in flight', async () => {
      const store = await factory();
      const { windowEndsAt } = await admit(store, T0);
      await admit(store, T0);
      await store.unjudged(KEY, windowEndsAt);
      expect(await store.get(KEY), 'another still in flight').to.include({ inFlight: 1 });
      await store.unjudged(KEY, windowEndsAt);
      expect(await store.get(KEY), 'the last one given back').to.equal(undefined);
      // A key with a lock count keeps it: its next window is bounded by the threshold.
      await failTimes(store, T0, 2);
      await store.lock(KEY, T0, T0 + MINUTE, 2);
      const locked = await admit(store, T0 + MINUTE);
      await store.unjudged(KEY, locked.windowEndsAt);
      expect(await store.get(KEY)).to.include({ inFlight: 0, locks: 1 });
    });

    it('locks a key whose open window reached the failures asked, counts the lock and clears its failures, keeping its attempts in flight; admits nothing while locked', async () => {
      const store = await factory();
      await failTimes(store, T0, 1);
      const { windowEndsAt } = await admit(store, T0);
      expect(await store.lock(KEY, T0, T0 + MINUTE, 2), 'one failure of two').to.equal(false);
      await failTimes(store, T0, 1);
      expect(await store.lock(KEY, T0, T0 + MINUTE, 2)).to.equal(true);
      expect(await store.get(KEY)).to.deep.equal({ failures: 0, inFlight: 1, windowEndsAt, lockedUntil: T0 + MINUTE, locks: 1 });
      expect(await admit(store, T0 + MINUTE - 1)).to.deep.equal({ admitted: false, failures: 0, inFlight: 1, windowEndsAt, lockedUntil: T0 + MINUTE, locks: 1 });
      // The one in flight fails during the lock: counted in its window, which the lock does not extend.
      expect(await store.failed(KEY, windowEndsAt)).to.include({ failures: 1, inFlight: 0, lockedUntil: T0 + MINUTE });
      expect(await admit(store, T0 + MINUTE)).to.deep.equal({ admitted: true, failures: 0, inFlight: 1, windowEndsAt: T0 + 2 * MINUTE, lockedUntil: T0 + MINUTE, locks: 1 });
    });

    it('bounds a key locked since its last success by the threshold, even without failures in its window', async () => {
      const store = await factory();
      await failTimes(store, T0, 1);
      await store.lock(KEY, T0, T0 + 1000, 1);
      for (let i = 1; i <= 2; i++) expect(await admit(store, T0 + MINUTE, { threshold: 2, inFlightCap: 10 })).to.include({ admitted: true, inFlight: i });
      expect(await admit(store, T0 + MINUTE, { threshold: 2, inFlightCap: 10 })).to.include({ admitted: false, failures: 0, inFlight: 2, locks: 1 });
    });

    it('locks no key never seen or forgotten, nor one whose window ended', async () => {
      const store = await factory();
      expect(await store.lock(KEY, T0, T0 + MINUTE, 1)).to.equal(false);
      await failTimes(store, T0, 1);
      expect(await store.lock(KEY, T0 + MINUTE, T0 + 2 * MINUTE, 1), 'the window ended').to.equal(false);
      await store.forget(KEY, T0);
      expect(await store.lock(KEY, T0, T0 + MINUTE, 1), 'forgotten').to.equal(false);
      expect(await store.get(KEY)).to.equal(undefined);
    });

    it('never extends a lock, and locks again once it has ended', async () => {
      const store = await factory();
      await failTimes(store, T0, 1);
      await store.lock(KEY, T0, T0 + MINUTE, 1);
      expect(await store.lock(KEY, T0 + 1000, T0 + 10 * MINUTE, 0)).to.equal(false);
      expect(await store.get(KEY)).to.include({ lockedUntil: T0 + MINUTE, locks: 1 });
      await failTimes(store, T0 + MINUTE, 1);
      expect(await store.lock(KEY, T0 + MINUTE, T0 + 3 * MINUTE, 1)).to.equal(true);
      expect(await store.get(KEY)).to.include({ lockedUntil: T0 + 3 * MINUTE, locks: 2 });
    });

    it('locks once when many lock at the same time', async () => {
      const store = await factory();
      await failTimes(store, T0, 1);
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => store.lock(KEY, T0, T0 + (i + 1) * MINUTE, 1)));
      expect(results.filter(Boolean)).to.have.length(1);
      expect(await store.get(KEY)).to.include({ locks: 1 });
    });

    it('forgets everything about a key on a success with nothing else in flight, other keys untouched', async () => {
      const store = await factory();
      await failTimes(store, T0, 1);
      await store.lock(KEY, T0, T0 + MINUTE, 1);
      const { windowEndsAt } = await store.admit('198.51.100.1', T0, NO_LIMITS);
      await store.forget(KEY, T0);
      expect(await store.get(KEY)).to.equal(undefined);
      expect(await store.get('198.51.100.1')).to.include({ inFlight: 1 });
      await store.forget('198.51.100.1', T0, windowEndsAt);
      expect(await store.get('198.51.100.1'), 'its own attempt was the only one in flight').to.equal(undefined);
      await store.forget('never seen', T0, windowEndsAt);
      expect(await store.get('never seen')).to.equal(undefined);
    });

    it('keeps the window of a success with others in flight, cleared: they settle in it, never below 0, and the last success deletes it', async () => {
      const store = await factory();
      await failTimes(store, T0, 2);
      await store.lock(KEY, T0, T0 + MINUTE, 2);
      const { windowEndsAt } = await admit(store, T0 + MINUTE);
      await admit(store, T0 + MINUTE);
      await admit(store, T0 + MINUTE);
      await store.failed(KEY, windowEndsAt);
      await store.forget(KEY, T0 + MINUTE, windowEndsAt);
      expect(await store.get(KEY)).to.deep.equal({ failures: 0, inFlight: 1, windowEndsAt, lockedUntil: 0, locks: 0 });
      // A failure told after the success counts in the window.
      expect(await store.failed(KEY, windowEndsAt)).to.include({ failures: 1, inFlight: 0 });
      await store.unjudged(KEY, windowEndsAt);
      expect(await store.get(KEY)).to.include({ inFlight: 0 });
      await store.forget(KEY, T0 + MINUTE, windowEndsAt);
      expect(await store.get(KEY)).to.equal(undefined);
      expect(await store.failed(KEY, windowEndsAt), 'a settle after the key was forgotten').to.equal(undefined);
      expect(await store.get(KEY)).to.equal(undefined);
    });

    it('deletes a key on a success once its window ended, whatever it held in flight', async () => {
      const store = await factory();
      for (let i = 0; i < 3; i++) await admit(store, T0);
      await store.forget(KEY, T0 + MINUTE);
      expect(await store.get(KEY)).to.equal(undefined);
    });

    it('admits attempts from two nodes as one count up to the bound, and locks once when both lock at the same time', async () => {
      const [store, other] = await twoNodes(factory, anotherNode);
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => admit(i % 2 === 0 ? store : other, T0, { inFlightCap: 4 })));
      expect(answers.filter(({ admitted }) => admitted).map(({ inFlight }) => inFlight).sort((a, b) => a - b)).to.deep.equal([1, 2, 3, 4]);
      for (let i = 0; i < 4; i++) await (i % 2 === 0 ? store : other).failed(KEY, T0 + MINUTE);
      const locked = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? store : other).lock(KEY, T0, T0 + MINUTE, 4)));
      expect(locked.filter(Boolean)).to.have.length(1);
      expect(await other.get(KEY)).to.include({ failures: 0, inFlight: 0, lockedUntil: T0 + MINUTE, locks: 1 });
      await other.forget(KEY, T0);
      expect(await store.get(KEY)).to.equal(undefined);
    });
  });
}
