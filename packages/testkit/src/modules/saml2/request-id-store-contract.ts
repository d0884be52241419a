import { expect } from 'chai';
import type { SamlRequestIdStore } from '@tessera/core/modules/saml2';
import { twoNodes, type AnotherNode } from '../../another-node.js';
import { FixedClock } from '../../fixed-clock.js';

export type SamlRequestIdStoreFactory = () => SamlRequestIdStore | Promise<SamlRequestIdStore>;

const SP = 'https://sp.example.org/shibboleth';
/** The contracts' fixed time, at which the records' clock stands. */
const FIXED_NOW = new FixedClock().now();
const LATER = FIXED_NOW + 5 * 60_000;

/** The SamlRequestIdStore contract (core's modules/saml2/request-id-store.ts): a request id is accepted once per issuer, on any node. */
export function describeSamlRequestIdStore(name: string, factory: SamlRequestIdStoreFactory, anotherNode?: AnotherNode<SamlRequestIdStore>): void {
  describe(`SamlRequestIdStore contract: ${name}`, () => {
    it('accepts a request id once', async () => {
      const store = await factory();
      expect(await store.claim(SP, '_request-1', LATER)).to.equal(true);
      expect(await store.claim(SP, '_request-1', LATER)).to.equal(false);
      expect(await store.claim(SP, '_request-2', LATER)).to.equal(true);
    });

    it('keeps issuers apart, and ids compared exactly', async () => {
      const store = await factory();
      await store.claim(SP, '_request-1', LATER);
      expect(await store.claim('https://other.example.org/sp', '_request-1', LATER)).to.equal(true);
      expect(await store.claim(SP, '_REQUEST-1', LATER)).to.equal(true);
      // The separator between issuer and id is no character either may hold to collide.
      expect(await store.claim(`${SP}_request`, '-1', LATER)).to.equal(true);
    });

    it('holds ids of any length and content as they are', async () => {
      const store = await factory();
      const long = `_${'x'.repeat(5000)}`;
      expect(await store.claim(SP, long, LATER)).to.equal(true);
      expect(await store.claim(SP, long, LATER)).to.equal(false);
      expect(await store.claim(SP, 'ünïcode:{tag} id', LATER)).to.equal(true);
      expect(await store.claim(SP, 'ünïcode:{tag} id', LATER)).to.equal(false);
    });

    it('forgets an id once its claim has expired', async () => {
      const store = await factory();
      expect(await store.claim(SP, '_expired', FIXED_NOW - 1)).to.equal(true);
      expect(await store.claim(SP, '_expired', LATER)).to.equal(true);
    });

    it('lets exactly one of many concurrent claims win, on one node and across two', async () => {
      const [store, other] = await twoNodes(factory, anotherNode);
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? store : other).claim(SP, '_raced', LATER)));
      expect(results.filter(Boolean)).to.have.length(1);
      expect(await other.claim(SP, '_raced', LATER)).to.equal(false);
    });
  });
}
