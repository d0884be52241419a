import { expect } from 'chai';
import { aServiceTicket } from './builders.js';
import { saveTgtWithSt, type CurrentFixture } from './ticket-store-fixture.js';

/** consume and touch are the two read-modify-write steps; each must be atomic under concurrency. */
export function describeConsumeAndTouch(current: CurrentFixture): void {
  describe('consume', () => {
    it('returns the ST once, then undefined, and the ST is gone', async () => {
      const { tgt, st } = await saveTgtWithSt(current());
      const { store } = current();
      expect(await store.consume(st.id)).to.deep.equal(st);
      expect(await store.consume(st.id)).to.equal(undefined);
      expect(await store.get(st.id)).to.equal(undefined);
      expect(await store.get(tgt.id)).to.deep.equal(tgt);
    });

    it('never consumes a TGT: undefined, and the TGT stays', async () => {
      const { tgt } = await saveTgtWithSt(current());
      const { store } = current();
      expect(await store.consume(tgt.id)).to.equal(undefined);
      expect(await store.get(tgt.id)).to.deep.equal(tgt);
    });

    it('returns undefined for an unknown id', async () => {
      expect(await current().store.consume('ST-999-unknown-test')).to.equal(undefined);
    });

    it('gives one ST to exactly one of 50 concurrent callers', async () => {
      const { st } = await saveTgtWithSt(current());
      const { store } = current();
      const results = await Promise.all(Array.from({ length: 50 }, () => store.consume(st.id)));
      const winners = results.filter((result) => result !== undefined);
      expect(winners).to.have.length(1);
      expect(winners[0]).to.deep.equal(st);
    });

    it('consumes 50 different STs concurrently, each exactly once', async () => {
      const { tgt } = await saveTgtWithSt(current());
      const { clock, store } = current();
      const tickets = Array.from({ length: 50 }, () => aServiceTicket(clock, { tgtId: tgt.id }));
      await Promise.all(tickets.map((st) => store.save(st)));
      const results = await Promise.all([...tickets, ...tickets].map((st) => store.consume(st.id)));
      const won = results.filter((result) => result !== undefined).map((st) => st.id);
      expect(won).to.have.members(tickets.map((st) => st.id));
    });
  });

  describe('touch', () => {
    it('increments servicesGranted and sets expiresAt, changing nothing else', async () => {
      const { tgt } = await saveTgtWithSt(current());
      const { clock, store } = current();
      const expected = { ...tgt, servicesGranted: 1, expiresAt: clock.now() + 5000 };
      expect(await store.touch(tgt.id, expected.expiresAt)).to.deep.equal(expected);
      expect(await store.get(tgt.id)).to.deep.equal(expected);
      expect(await store.touch(tgt.id, expected.expiresAt + 1)).to.deep.include({ servicesGranted: 2, expiresAt: expected.expiresAt + 1 });
    });

    it('counts every one of 20 concurrent touches', async () => {
      const { tgt } = await saveTgtWithSt(current());
      const { clock, store } = current();
      await Promise.all(Array.from({ length: 20 }, (_, i) => store.touch(tgt.id, clock.now() + 1000 + i)));
      expect(await store.get(tgt.id)).to.deep.include({ servicesGranted: 20 });
    });

    it('refuses an unknown id and an ST id, leaving the ST unchanged', async () => {
      const { st } = await saveTgtWithSt(current());
      const { clock, store } = current();
      expect(await store.touch('TGT-999-unknown-test', clock.now() + 1000)).to.equal(undefined);
      expect(await store.touch(st.id, clock.now() + 60_000)).to.equal(undefined);
      expect(await store.get(st.id)).to.deep.equal(st);
    });
  });
}
