import { expect } from 'chai';
import type { ThrottleStore } from '@tessera/core/modules/throttle';
import { twoNodes, type AnotherNode } from '../../another-node.js';

export type ThrottleStoreFactory = () => ThrottleStore | Promise<ThrottleStore>;

const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);
const MINUTE = 60_000;
const KEY = '203.0.113.9 casuser';
/** A limit no case reaches, where the case is about counting. */
const NO_LIMIT = 1000;

/** The ThrottleStore contract (core's modules/throttle/throttle-store.ts): times are passed in, so no clock moves. */
export function describeThrottleStore(name: string, factory: ThrottleStoreFactory, anotherNode?: AnotherNode<ThrottleStore>): void {
  describe(`ThrottleStore contract: ${name}`, () => {
    const count = (store: ThrottleStore, now: number, limit = NO_LIMIT) => store.countAttempt(KEY, now, MINUTE, limit);

    it('knows nothing of a key never seen', async () => {
      expect(await (await factory()).get(KEY)).to.equal(undefined);
    });

    it('counts attempts within the window that opened at the first one, and starts again after it', async () => {
      const store = await factory();
      expect(await count(store, T0)).to.deep.equal({ counted: true, failures: 1, windowEndsAt: T0 + MINUTE, lockedUntil: 0, locks: 0 });
      expect(await count(store, T0 + 30_000)).to.include({ counted: true, failures: 2 });
      expect(await count(store, T0 + MINUTE - 1)).to.include({ counted: true, failures: 3, windowEndsAt: T0 + MINUTE });
      expect(await store.get(KEY)).to.deep.equal({ failures: 3, windowEndsAt: T0 + MINUTE, lockedUntil: 0, locks: 0 });
      expect(await count(store, T0 + MINUTE)).to.include({ counted: true, failures: 1, windowEndsAt: T0 + 2 * MINUTE });
      expect(await store.get(KEY)).to.include({ failures: 1, windowEndsAt: T0 + 2 * MINUTE });
    });

    it('counts no attempt past the limit of the open window, and counts again in the next window', async () => {
      const store = await factory();
      for (let i = 1; i <= 3; i++) expect(await count(store, T0 + i, 3)).to.include({ counted: true, failures: i });
      expect(await count(store, T0 + 10, 3)).to.deep.equal({ counted: false, failures: 3, windowEndsAt: T0 + 1 + MINUTE, lockedUntil: 0, locks: 0 });
      expect(await store.get(KEY)).to.include({ failures: 3 });
      expect(await count(store, T0 + 1 + MINUTE, 3)).to.include({ counted: true, failures: 1 });
    });

    it('keeps keys apart', async () => {
      const store = await factory();
      await count(store, T0);
      expect(await store.countAttempt('203.0.113.9 alice', T0, MINUTE, NO_LIMIT)).to.include({ counted: true, failures: 1 });
      expect(await store.countAttempt('203.0.113.9', T0, MINUTE, NO_LIMIT)).to.include({ counted: true, failures: 1 });
    });

    it('counts exactly `limit` of many concurrent attempts', async () => {
      const store = await factory();
      const answers = await Promise.all(Array.from({ length: 20 }, () => count(store, T0, 5)));
      expect(answers.filter(({ counted }) => counted).map(({ failures }) => failures).sort((a, b) => a - b)).to.deep.equal([1, 2, 3, 4, 5]);
      expect(await store.get(KEY)).to.include({ failures: 5 });
    });

    it('gives back an attempt of the window it was counted in, never below 0 and never to a later window or a key never seen', async () => {
      const store = await factory();
      const { windowEndsAt } = await count(store, T0);
      await count(store, T0 + 1);
      await store.releaseAttempt(KEY, windowEndsAt);
      expect(await store.get(KEY)).to.include({ failures: 1 });
      await store.releaseAttempt(KEY, windowEndsAt);
      await store.releaseAttempt(KEY, windowEndsAt);
      expect(await store.get(KEY)).to.include({ failures: 0 });
      await count(store, T0 + MINUTE);
      await store.releaseAttempt(KEY, windowEndsAt);
      expect(await store.get(KEY)).to.include({ failures: 1, windowEndsAt: T0 + 2 * MINUTE });
      await store.releaseAttempt('198.51.100.1', windowEndsAt);
      expect(await store.get('198.51.100.1')).to.equal(undefined);
    });

    it('locks a key whose open window reached the attempts asked, counts the lock and clears the window; counts nothing while locked', async () => {
      const store = await factory();
      await count(store, T0);
      expect(await store.lock(KEY, T0, T0 + MINUTE, 2), 'one attempt of two').to.equal(false);
      await count(store, T0);
      expect(await store.lock(KEY, T0, T0 + MINUTE, 2)).to.equal(true);
      expect(await store.get(KEY)).to.deep.equal({ failures: 0, windowEndsAt: 0, lockedUntil: T0 + MINUTE, locks: 1 });
      expect(await count(store, T0 + MINUTE - 1)).to.deep.equal({ counted: false, failures: 0, windowEndsAt: 0, lockedUntil: T0 + MINUTE, locks: 1 });
      expect(await count(store, T0 + MINUTE)).to.deep.equal({ counted: true, failures: 1, windowEndsAt: T0 + 2 * MINUTE, lockedUntil: T0 + MINUTE, locks: 1 });
    });

    it('locks no key never seen or forgotten, nor one whose window ended', async () => {
      const store = await factory();
      expect(await store.lock(KEY, T0, T0 + MINUTE, 1)).to.equal(false);
      await count(store, T0);
      expect(await store.lock(KEY, T0 + MINUTE, T0 + 2 * MINUTE, 1), 'the window ended').to.equal(false);
      await store.reset(KEY);
      expect(await store.lock(KEY, T0, T0 + MINUTE, 1), 'forgotten').to.equal(false);
      expect(await store.get(KEY)).to.equal(undefined);
    });

    it('never extends a lock, and locks again once it has ended', async () => {
      const store = await factory();
      await count(store, T0);
      await store.lock(KEY, T0, T0 + MINUTE, 1);
      expect(await store.lock(KEY, T0 + 1000, T0 + 10 * MINUTE, 0)).to.equal(false);
      expect(await store.get(KEY)).to.include({ lockedUntil: T0 + MINUTE, locks: 1 });
      await count(store, T0 + MINUTE);
      expect(await store.lock(KEY, T0 + MINUTE, T0 + 3 * MINUTE, 1)).to.equal(true);
      expect(await store.get(KEY)).to.include({ lockedUntil: T0 + 3 * MINUTE, locks: 2 });
    });

    it('locks once when many lock at the same time', async () => {
      const store = await factory();
      await count(store, T0);
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => store.lock(KEY, T0, T0 + (i + 1) * MINUTE, 1)));
      expect(results.filter(Boolean)).to.have.length(1);
      expect(await store.get(KEY)).to.include({ locks: 1 });
    });

    it('forgets everything about a key on reset, other keys untouched', async () => {
      const store = await factory();
      await count(store, T0);
      await store.lock(KEY, T0, T0 + MINUTE, 1);
      await store.countAttempt('198.51.100.1', T0, MINUTE, NO_LIMIT);
      await store.reset(KEY);
      expect(await store.get(KEY)).to.equal(undefined);
      expect(await store.get('198.51.100.1')).to.include({ failures: 1 });
      await store.reset('never seen');
    });

    it('counts attempts from two nodes as one count up to the limit, and locks once when both lock at the same time', async () => {
      const [store, other] = await twoNodes(factory, anotherNode);
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => count(i % 2 === 0 ? store : other, T0, 4)));
      expect(answers.filter(({ counted }) => counted).map(({ failures }) => failures).sort((a, b) => a - b)).to.deep.equal([1, 2, 3, 4]);
      const locked = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? store : other).lock(KEY, T0, T0 + MINUTE, 4)));
      expect(locked.filter(Boolean)).to.have.length(1);
      expect(await other.get(KEY)).to.include({ failures: 0, lockedUntil: T0 + MINUTE, locks: 1 });
      await other.reset(KEY);
      expect(await store.get(KEY)).to.equal(undefined);
    });
  });
}
