import { expect } from 'chai';
import type { RequestRateStore } from '@tessera/core/modules/throttle';
import { twoNodes, type AnotherNode } from '../../another-node.js';

export type RequestRateStoreFactory = () => RequestRateStore | Promise<RequestRateStore>;

const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);

/** The RequestRateStore contract (core's modules/throttle/request-rate-store.ts): a token bucket per key. */
export function describeRequestRateStore(name: string, factory: RequestRateStoreFactory, anotherNode?: AnotherNode<RequestRateStore>): void {
  describe(`RequestRateStore contract: ${name}`, () => {
    it('starts full: `capacity` requests at once, then the wait until the next token', async () => {
      const store = await factory();
      for (let i = 0; i < 3; i++) expect(await store.take('203.0.113.9', T0, 3, 2)).to.equal(0);
      expect(await store.take('203.0.113.9', T0, 3, 2)).to.equal(500);
      expect(await store.take('198.51.100.1', T0, 3, 2)).to.equal(0);
    });

    it('refills at the rate, never above capacity', async () => {
      const store = await factory();
      for (let i = 0; i < 3; i++) await store.take('k', T0, 3, 2);
      expect(await store.take('k', T0 + 250, 3, 2)).to.equal(250);
      expect(await store.take('k', T0 + 500, 3, 2)).to.equal(0);
      expect(await store.take('k', T0 + 500, 3, 2)).to.equal(500);
      const later = T0 + 3_600_000;
      for (let i = 0; i < 3; i++) expect(await store.take('k', later, 3, 2)).to.equal(0);
      expect(await store.take('k', later, 3, 2)).to.be.greaterThan(0);
    });

    it('lets exactly `capacity` of many concurrent requests through', async () => {
      const store = await factory();
      const waits = await Promise.all(Array.from({ length: 10 }, () => store.take('k', T0, 4, 1)));
      expect(waits.filter((wait) => wait === 0)).to.have.length(4);
    });

    it('shares one bucket per key between nodes: exactly `capacity` of concurrent requests on both get through', async () => {
      const [store, other] = await twoNodes(factory, anotherNode);
      const waits = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? store : other).take('k', T0, 4, 1)));
      expect(waits.filter((wait) => wait === 0)).to.have.length(4);
    });
  });
}
