import { expect } from 'chai';
import { aServiceTicket, aTicketGrantingTicket } from './builders.js';
import type { CurrentFixture } from './ticket-store-fixture.js';

/** Expiry is decided by the clock on every read, never by physical deletion. */
export function describeExpiry(current: CurrentFixture): void {
  describe('expiry, driven by the clock', () => {
    it('keeps a TGT live 1 ms before expiresAt and gone at expiresAt', async () => {
      const { clock, store } = current();
      const tgt = aTicketGrantingTicket(clock);
      await store.save(tgt);
      clock.set(tgt.expiresAt - 1);
      expect(await store.get(tgt.id)).to.deep.equal(tgt);
      clock.set(tgt.expiresAt);
      expect(await store.get(tgt.id)).to.equal(undefined);
    });

    it("keeps a TGT of a service's own lifetime (hardTimeout) as saved, through get and touch, and lets it die at its hard limit", async () => {
      const { clock, store } = current();
      const hardExpiresAt = clock.now() + 4000;
      const tgt = aTicketGrantingTicket(clock, { hardExpiresAt, expiresAt: hardExpiresAt, hardTimeout: true });
      await store.save(tgt);
      expect(await store.get(tgt.id)).to.deep.equal(tgt);
      clock.advanceSeconds(1);
      expect(await store.touch(tgt.id, hardExpiresAt)).to.deep.equal({ ...tgt, servicesGranted: 1 });
      expect(await store.get(tgt.id)).to.deep.equal({ ...tgt, servicesGranted: 1 });
      // The same user logging in again keeps the session, and its lifetime.
      const again = { ...tgt.authentication, authenticatedAt: clock.now() };
      expect(await store.updateAuthentication({ ...tgt, servicesGranted: 1 }, again)).to.deep.equal({ ...tgt, authentication: again, servicesGranted: 1 });
      clock.set(hardExpiresAt);
      expect(await store.get(tgt.id)).to.equal(undefined);
      // A TGT of the default lifetimes comes back without the mark.
      const plain = aTicketGrantingTicket(clock);
      await store.save(plain);
      expect(await store.get(plain.id)).to.not.have.property('hardTimeout');
    });

    it('keeps an ST live 1 ms before expiresAt and gone at expiresAt', async () => {
      const { clock, store } = current();
      const st = aServiceTicket(clock);
      await store.save(st);
      clock.set(st.expiresAt - 1);
      expect(await store.get(st.id)).to.deep.equal(st);
      clock.set(st.expiresAt);
      expect(await store.get(st.id)).to.equal(undefined);
    });

    it('consumes an ST 1 ms before expiresAt but not at expiresAt', async () => {
      const { clock, store } = current();
      const [early, late] = [aServiceTicket(clock), aServiceTicket(clock)];
      await store.save(early);
      await store.save(late);
      clock.set(early.expiresAt - 1);
      expect(await store.consume(early.id)).to.deep.equal(early);
      clock.set(late.expiresAt);
      expect(await store.consume(late.id)).to.equal(undefined);
    });

    it('touches a TGT 1 ms before expiresAt but not at expiresAt, and a refused touch never revives it', async () => {
      const { clock, store } = current();
      const tgt = aTicketGrantingTicket(clock);
      await store.save(tgt);
      clock.set(tgt.expiresAt - 1);
      const slid = tgt.expiresAt + 1000;
      expect(await store.touch(tgt.id, slid)).to.deep.include({ expiresAt: slid, servicesGranted: 1 });
      clock.set(slid);
      expect(await store.touch(tgt.id, slid + 3_600_000)).to.equal(undefined);
      expect(await store.get(tgt.id)).to.equal(undefined);
      clock.advanceSeconds(60);
      expect(await store.get(tgt.id)).to.equal(undefined);
    });

    it('treats an expired TGT as gone for every method, whether or not the record is kept', async () => {
      const { clock, store } = current();
      const tgt = aTicketGrantingTicket(clock);
      await store.save(tgt);
      clock.set(tgt.expiresAt);
      expect(await store.touch(tgt.id, clock.now() + 1000)).to.equal(undefined);
      expect(await store.consume(tgt.id)).to.equal(undefined);
      expect(await store.get(tgt.id)).to.equal(undefined);
      clock.advanceSeconds(3 * 3600);
      expect(await store.get(tgt.id)).to.equal(undefined);
    });
  });
}

export function describeRemoval(current: CurrentFixture): void {
  describe('remove and removeDescendants', () => {
    it('removes a ticket of either kind, and accepts an unknown id', async () => {
      const { clock, store } = current();
      const tgt = aTicketGrantingTicket(clock);
      const st = aServiceTicket(clock, { tgtId: tgt.id });
      await store.save(tgt);
      await store.save(st);
      await store.remove(tgt.id);
      await store.remove(st.id);
      await store.remove('ST-999-unknown-test');
      expect(await store.get(tgt.id)).to.equal(undefined);
      expect(await store.get(st.id)).to.equal(undefined);
    });

    it("removes exactly the STs of one TGT and returns their count; the TGT and other TGTs' STs stay", async () => {
      const { clock, store } = current();
      const [mine, other] = [aTicketGrantingTicket(clock), aTicketGrantingTicket(clock)];
      const myTickets = Array.from({ length: 3 }, () => aServiceTicket(clock, { tgtId: mine.id }));
      const otherTickets = Array.from({ length: 2 }, () => aServiceTicket(clock, { tgtId: other.id }));
      for (const ticket of [mine, other, ...myTickets, ...otherTickets]) await store.save(ticket);

      expect(await store.removeDescendants(mine.id)).to.equal(3);
      for (const st of myTickets) expect(await store.get(st.id)).to.equal(undefined);
      for (const st of otherTickets) expect(await store.get(st.id)).to.deep.equal(st);
      expect(await store.get(mine.id)).to.deep.equal(mine);
      expect(await store.get(other.id)).to.deep.equal(other);
      expect(await store.removeDescendants(mine.id)).to.equal(0);
    });

    it('counts only STs that still exist: not consumed, removed or expired ones', async () => {
      const { clock, store } = current();
      const tgt = aTicketGrantingTicket(clock);
      const consumed = aServiceTicket(clock, { tgtId: tgt.id });
      const removed = aServiceTicket(clock, { tgtId: tgt.id });
      const expired = aServiceTicket(clock, { tgtId: tgt.id, expiresAt: clock.now() + 1000 });
      const live = aServiceTicket(clock, { tgtId: tgt.id });
      for (const ticket of [tgt, consumed, removed, expired, live]) await store.save(ticket);
      await store.consume(consumed.id);
      await store.remove(removed.id);
      clock.advance(1000);

      expect(await store.removeDescendants(tgt.id)).to.equal(1);
      expect(await store.get(live.id)).to.equal(undefined);
      expect(await store.removeDescendants('TGT-999-unknown-test')).to.equal(0);
    });
  });
}
