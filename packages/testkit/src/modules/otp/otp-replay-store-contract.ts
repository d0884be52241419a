import { expect } from 'chai';
import type { OtpReplayStore } from '@tessera/core/modules/otp';
import { twoNodes, type AnotherNode } from '../../another-node.js';

export type OtpReplayStoreFactory = () => OtpReplayStore | Promise<OtpReplayStore>;

const STEP = 59_000_000;

/**
 * The OtpReplayStore contract (core's modules/otp/otp-replay-store.ts): each step is accepted once, never an older
 * one, and concurrent claims behave as if made one after the other, so a later step is never refused.
 */
export function describeOtpReplayStore(name: string, factory: OtpReplayStoreFactory, anotherNode?: AnotherNode<OtpReplayStore>): void {
  describe(`OtpReplayStore contract: ${name}`, () => {
    it('accepts a first step, then only later ones', async () => {
      const store = await factory();
      expect(await store.claim('casuser', STEP)).to.equal(true);
      expect(await store.claim('casuser', STEP)).to.equal(false);
      expect(await store.claim('casuser', STEP - 1)).to.equal(false);
      expect(await store.claim('casuser', STEP + 1)).to.equal(true);
      expect(await store.claim('casuser', STEP)).to.equal(false);
    });

    it('keeps users apart, names compared exactly', async () => {
      const store = await factory();
      await store.claim('casuser', STEP);
      expect(await store.claim('alice', STEP)).to.equal(true);
      expect(await store.claim('CasUser', STEP)).to.equal(true);
    });

    it('lets exactly one of many concurrent claims of a step win', async () => {
      const store = await factory();
      const results = await Promise.all(Array.from({ length: 10 }, () => store.claim('casuser', STEP)));
      expect(results.filter(Boolean)).to.have.length(1);
    });

    it('refuses on one node a step claimed on the other, and lets one of concurrent claims on both win', async () => {
      const [store, other] = await twoNodes(factory, anotherNode);
      expect(await store.claim('casuser', STEP)).to.equal(true);
      expect(await other.claim('casuser', STEP)).to.equal(false);
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? store : other).claim('casuser', STEP + 1)));
      expect(results.filter(Boolean)).to.have.length(1);
    });

    it('lets the later step win when two nodes race to claim a user\'s first steps: it is accepted, the earlier one then refused', async () => {
      // Two nodes verifying codes of neighbouring steps at once (accepted: the current step and one either side).
      for (const [first, second] of [['earlier', 'later'], ['later', 'earlier']] as const) {
        const [store, other] = await twoNodes(factory, anotherNode);
        const username = `racer-${first}-first`;
        const claims = { earlier: () => store.claim(username, STEP), later: () => other.claim(username, STEP + 1) };
        const [firstResult, secondResult] = await Promise.all([claims[first](), claims[second]()]);
        const later = first === 'later' ? firstResult : secondResult;
        expect(later, `${first} claimed first`).to.equal(true);
        expect(await store.claim(username, STEP), `${first} claimed first`).to.equal(false);
        expect(await other.claim(username, STEP + 1), `${first} claimed first`).to.equal(false);
      }
    });
  });
}
