import { expect } from 'chai';
import type { OtpReplayStore } from '@tessera/core';

export type OtpReplayStoreFactory = () => OtpReplayStore | Promise<OtpReplayStore>;

const STEP = 59_000_000;

/** The OtpReplayStore contract (core's ports/otp-replay-store.ts): each step is accepted once, never an older one. */
export function describeOtpReplayStore(name: string, factory: OtpReplayStoreFactory): void {
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
  });
}
