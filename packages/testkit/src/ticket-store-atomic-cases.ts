import { expect } from 'chai';
import { anAuthentication, aProxyTicket, aServiceTicket, aTicketGrantingTicket } from './builders.js';
import type { ValidatableTicket } from '@tessera/core';
import { saveTgtWithSt, type CurrentFixture, type TicketStoreFixture } from './ticket-store-fixture.js';

/** 50 callers, alternately on either node, consume one stored ticket at once: exactly one gets it, whole. */
export async function expectOneWinnerAcrossNodes({ other, store }: TicketStoreFixture, ticket: ValidatableTicket): Promise<void> {
  const results = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? store : other).consume(ticket.id)));
  const winners = results.filter((result) => result !== undefined);
  expect(winners).to.have.length(1);
  expect(winners[0]).to.deep.equal(ticket);
}

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

    it('takes one use of a multi-use ST (or PT) per consume, each returning it as it was, the last removing it; get shows the uses left', async () => {
      const { tgt } = await saveTgtWithSt(current());
      const { clock, store } = current();
      const st = aServiceTicket(clock, { tgtId: tgt.id, usesLeft: 3 });
      const pt = aProxyTicket(clock, { tgtId: tgt.id, usesLeft: 2 });
      await store.save(st);
      await store.save(pt);
      expect(await store.get(st.id)).to.deep.equal(st);
      expect(await store.consume(st.id)).to.deep.equal(st);
      expect(await store.get(st.id)).to.deep.equal({ ...st, usesLeft: 2 });
      expect(await store.consume(st.id)).to.deep.equal({ ...st, usesLeft: 2 });
      expect(await store.consume(st.id)).to.deep.equal({ ...st, usesLeft: 1 });
      expect(await store.consume(st.id)).to.equal(undefined);
      expect(await store.get(st.id)).to.equal(undefined);
      expect(await store.consume(pt.id)).to.deep.equal(pt);
      expect(await store.consume(pt.id)).to.deep.equal({ ...pt, usesLeft: 1 });
      expect(await store.consume(pt.id)).to.equal(undefined);
      // Expiry ends the uses left, and a logout takes the ticket with its session.
      const expiring = aServiceTicket(clock, { tgtId: tgt.id, usesLeft: 5 });
      await store.save(expiring);
      await store.consume(expiring.id);
      clock.set(expiring.expiresAt);
      expect(await store.consume(expiring.id)).to.equal(undefined);
    });

    it('gives a multi-use ST to exactly as many of 50 concurrent callers as it has uses', async () => {
      const { tgt } = await saveTgtWithSt(current());
      const { clock, store } = current();
      const st = aServiceTicket(clock, { tgtId: tgt.id, usesLeft: 3 });
      await store.save(st);
      const results = await Promise.all(Array.from({ length: 50 }, () => store.consume(st.id)));
      const winners = results.filter((result) => result !== undefined);
      expect(winners.map((winner) => winner.usesLeft).sort()).to.deep.equal([1, 2, 3]);
      expect(await store.get(st.id)).to.equal(undefined);
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

  describe('updateAuthentication', () => {
    it("gives a live TGT the new authentication, its time included, keeping the times and count a touch set meanwhile", async () => {
      const { tgt } = await saveTgtWithSt(current());
      const { clock, store } = current();
      clock.advance(60_000);
      const touched = await store.touch(tgt.id, clock.now() + 5000);
      const again = anAuthentication({ authenticatedAt: clock.now(), attributes: { credentialType: ['UsernamePasswordCredential'], successfulAuthenticationHandlers: ['config-users', 'a-second-handler'] } });
      const expected = { ...touched, authentication: again };
      expect(await store.updateAuthentication(tgt, again)).to.deep.equal(expected);
      expect(await store.get(tgt.id)).to.deep.equal(expected);
      expect(await store.touch(tgt.id, clock.now() + 6000)).to.deep.include({ authentication: again, servicesGranted: 2 });
    });

    it('refuses an unknown, an expired TGT and an ST, creating nothing and changing nothing', async () => {
      const { tgt, st } = await saveTgtWithSt(current());
      const { clock, store } = current();
      const again = anAuthentication({ authenticatedAt: clock.now() + 1 });
      const unknown = aTicketGrantingTicket(clock);
      expect(await store.updateAuthentication(unknown, again)).to.equal(undefined);
      expect(await store.get(unknown.id)).to.equal(undefined);
      expect(await store.updateAuthentication({ ...tgt, id: st.id }, again)).to.equal(undefined);
      expect(await store.get(st.id)).to.deep.equal(st);
      clock.set(tgt.expiresAt);
      expect(await store.updateAuthentication(tgt, again)).to.equal(undefined);
      clock.set(tgt.expiresAt - 1);
      expect(await store.get(tgt.id)).to.deep.equal(tgt);
    });
  });
}

/** What holds between nodes: each node's store sees and changes the same tickets, atomically. */
export function describeAcrossNodes(current: CurrentFixture): void {
  describe('across nodes (two stores over the same data)', () => {
    it("shows a ticket saved on one node on the other, and one node's touch to the other", async () => {
      const { tgt, st } = await saveTgtWithSt(current());
      const { clock, other, store } = current();
      expect(await other.get(tgt.id)).to.deep.equal(tgt);
      expect(await other.get(st.id)).to.deep.equal(st);
      await other.touch(tgt.id, clock.now() + 5000);
      expect(await store.get(tgt.id)).to.deep.include({ servicesGranted: 1, expiresAt: clock.now() + 5000 });
    });

    it('gives one ST to exactly one of 50 concurrent callers spread over both nodes', async () => {
      const { st } = await saveTgtWithSt(current());
      await expectOneWinnerAcrossNodes(current(), st);
    });

    it('counts every one of 20 concurrent touches from both nodes', async () => {
      const { tgt } = await saveTgtWithSt(current());
      const { clock, other, store } = current();
      await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? store : other).touch(tgt.id, clock.now() + 1000 + i)));
      expect(await store.get(tgt.id)).to.deep.include({ servicesGranted: 20 });
    });

    it("removes on one node the STs the other saved, and only the TGT's", async () => {
      const { clock, other, store } = current();
      const { tgt, st } = await saveTgtWithSt(current());
      const fromOther = aServiceTicket(clock, { tgtId: tgt.id });
      const unrelated = aServiceTicket(clock);
      await other.save(fromOther);
      await other.save(unrelated);
      await store.remove(tgt.id);
      expect(await store.removeDescendants(tgt.id)).to.equal(2);
      for (const gone of [tgt, st, fromOther]) expect(await other.get(gone.id)).to.equal(undefined);
      expect(await other.get(unrelated.id)).to.deep.equal(unrelated);
    });
  });
}
