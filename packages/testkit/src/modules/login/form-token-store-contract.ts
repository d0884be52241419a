import { expect } from 'chai';
import type { FormTokenStore } from '@tessera/core/modules/login';

export type FormTokenStoreFactory = () => FormTokenStore | Promise<FormTokenStore>;

const EXPIRES = Date.UTC(2026, 10, 21, 10, 30, 0);

/** The FormTokenStore contract (core's modules/login/form-token-store.ts): each token id is claimed once. */
export function describeFormTokenStore(name: string, factory: FormTokenStoreFactory): void {
  describe(`FormTokenStore contract: ${name}`, () => {
    it('accepts the first claim of an id and refuses every later one', async () => {
      const store = await factory();
      expect(await store.claim('jti-1', EXPIRES)).to.equal(true);
      expect(await store.claim('jti-1', EXPIRES)).to.equal(false);
      expect(await store.claim('jti-1', EXPIRES + 60_000)).to.equal(false);
    });

    it('keeps ids apart, compared exactly', async () => {
      const store = await factory();
      await store.claim('jti-1', EXPIRES);
      expect(await store.claim('jti-2', EXPIRES)).to.equal(true);
      expect(await store.claim('JTI-1', EXPIRES)).to.equal(true);
    });

    it('lets exactly one of many concurrent claims of an id win', async () => {
      const store = await factory();
      const results = await Promise.all(Array.from({ length: 10 }, () => store.claim('jti-1', EXPIRES)));
      expect(results.filter(Boolean)).to.have.length(1);
    });
  });
}
