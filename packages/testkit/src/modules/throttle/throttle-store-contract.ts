import { expect } from 'chai';
import type { ThrottleStore } from '@tessera/core/modules/throttle';
import { twoNodes, type AnotherNode } from '../../another-node.js';

export type ThrottleStoreFactory = () => ThrottleStore | Promise<ThrottleStore>;

const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);
const MINUTE = 60_000;
const KEY = '203.0.113.9 casuser';

/** The ThrottleStore contract (core's modules/throttle/throttle-store.ts): times are passed in, so no clock moves. */
export function describeThrottleStore(name: string, factory: ThrottleStoreFactory, anotherNode?: AnotherNode<ThrottleStore>): void {
  describe(`ThrottleStore contract: ${name}`, () => {
    it('knows nothing of a key never seen', async () => {
      expect(await (await factory()).get(KEY)).to.equal(undefined);
    });

    it('counts failures within the window that opened at the first one, and starts again after it', async () => {
      const store = await factory();
      expect(await store.recordFailure(KEY, T0, MINUTE)).to.equal(1);
      expect(await store.recordFailure(KEY, T0 + 30_000, MINUTE)).to.equal(2);
      expect(await store.recordFailure(KEY, T0 + MINUTE - 1, MINUTE)).to.equal(3);
      expect(await store.get(KEY)).to.include({ failures: 3, windowEndsAt: T0 + MINUTE, lockedUntil: 0, locks: 0 });
      expect(await store.recordFailure(KEY, T0 + MINUTE, MINUTE)).to.equal(1);
      expect(await store.get(KEY)).to.include({ failures: 1, windowEndsAt: T0 + 2 * MINUTE });
    });

    it('keeps keys apart', async () => {
      const store = await factory();
      await store.recordFailure(KEY, T0, MINUTE);
      expect(await store.recordFailure('203.0.113.9 alice', T0, MINUTE)).to.equal(1);
      expect(await store.recordFailure('203.0.113.9', T0, MINUTE)).to.equal(1);
    });

    it('counts every one of many concurrent failures', async () => {
      const store = await factory();
      const counts = await Promise.all(Array.from({ length: 20 }, () => store.recordFailure(KEY, T0, MINUTE)));
      expect([...counts].sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 20 }, (_, i) => i + 1));
    });

    it('locks a key, counts the lock and clears its failures', async () => {
      const store = await factory();
      await store.recordFailure(KEY, T0, MINUTE);
      expect(await store.lock(KEY, T0, T0 + MINUTE)).to.equal(true);
      expect(await store.get(KEY)).to.include({ failures: 0, lockedUntil: T0 + MINUTE, locks: 1 });
      expect(await store.recordFailure(KEY, T0 + MINUTE, MINUTE)).to.equal(1);
    });

    it('never extends a lock, and locks again once it has ended', async () => {
      const store = await factory();
      await store.lock(KEY, T0, T0 + MINUTE);
      expect(await store.lock(KEY, T0 + 1000, T0 + 10 * MINUTE)).to.equal(false);
      expect(await store.get(KEY)).to.include({ lockedUntil: T0 + MINUTE, locks: 1 });
      expect(await store.lock(KEY, T0 + MINUTE, T0 + 3 * MINUTE)).to.equal(true);
      expect(await store.get(KEY)).to.include({ lockedUntil: T0 + 3 * MINUTE, locks: 2 });
    });

    it('locks once when many lock at the same time', async () => {
      const store = await factory();
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => store.lock(KEY, T0, T0 + (i + 1) * MINUTE)));
      expect(results.filter(Boolean)).to.have.length(1);
      expect(await store.get(KEY)).to.include({ locks: 1 });
    });

    it('forgets everything about a key on reset, other keys untouched', async () => {
      const store = await factory();
      await store.lock(KEY, T0, T0 + MINUTE);
      await store.recordFailure('198.51.100.1', T0, MINUTE);
      await store.reset(KEY);
      expect(await store.get(KEY)).to.equal(undefined);
      expect(await store.get('198.51.100.1')).to.include({ failures: 1 });
      await store.reset('never seen');
    });

    it('counts failures from two nodes as one count, and locks once when both lock at the same time', async () => {
      const [store, other] = await twoNodes(factory, anotherNode);
      const counts = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? store : other).recordFailure(KEY, T0, MINUTE)));
      expect([...counts].sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 10 }, (_, i) => i + 1));
      const locked = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? store : other).lock(KEY, T0, T0 + MINUTE)));
      expect(locked.filter(Boolean)).to.have.length(1);
      expect(await other.get(KEY)).to.include({ failures: 0, lockedUntil: T0 + MINUTE, locks: 1 });
      await other.reset(KEY);
      expect(await store.get(KEY)).to.equal(undefined);
    });
  });
}
