import { expect } from 'chai';
import { aProxyGrantingTicket, aProxyTicket, aServiceTicket, aTicketGrantingTicket } from './builders.js';
import { expectOneWinnerAcrossNodes } from './ticket-store-atomic-cases.js';
import type { CurrentFixture, TicketStoreFixture } from './ticket-store-fixture.js';

/** A login session with everything a proxy adds to it: a TGT, an ST, a PGT and a PT of that PGT behind two proxies. */
async function saveProxiedSession({ clock, store }: TicketStoreFixture) {
  const tgt = aTicketGrantingTicket(clock);
  const st = aServiceTicket(clock, { tgtId: tgt.id });
  const pgt = aProxyGrantingTicket(clock, { tgtId: tgt.id, proxies: ['https://second.example.org/cb?x=1', 'https://first.example.org/cb'] });
  const pt = aProxyTicket(clock, { tgtId: tgt.id, grantedBy: pgt.id, proxies: pgt.proxies });
  for (const ticket of [tgt, st, pgt, pt]) await store.save(ticket);
  return { tgt, st, pgt, pt };
}

/**
 * Proxy tickets (CAS protocol 3.0 §3.2, §3.3): a PGT and the PTs it grants live under the TGT of their
 * login session. A PT is consumed like an ST; a PGT never is; a logout removes them all.
 */
export function describeProxyTickets(current: CurrentFixture): void {
  describe('proxy-granting and proxy tickets', () => {
    it('returns a saved PGT and a saved PT with every field equal, the proxy chain in order', async () => {
      const { pgt, pt } = await saveProxiedSession(current());
      const { other, store } = current();
      for (const node of [store, other]) {
        expect(await node.get(pgt.id)).to.deep.equal(pgt);
        expect(await node.get(pt.id)).to.deep.equal(pt);
      }
    });

    it('keeps a PGT and a PT live 1 ms before expiresAt and gone at expiresAt', async () => {
      const { clock, store } = current();
      const pgt = aProxyGrantingTicket(clock, { expiresAt: clock.now() + 60_000 });
      const pt = aProxyTicket(clock);
      await store.save(pgt);
      await store.save(pt);
      clock.set(pt.expiresAt - 1);
      expect(await store.get(pt.id)).to.deep.equal(pt);
      clock.set(pt.expiresAt);
      expect(await store.get(pt.id)).to.equal(undefined);
      expect(await store.consume(pt.id)).to.equal(undefined);
      clock.set(pgt.expiresAt - 1);
      expect(await store.get(pgt.id)).to.deep.equal(pgt);
      clock.set(pgt.expiresAt);
      expect(await store.get(pgt.id)).to.equal(undefined);
    });

    it('consumes a PT once, then undefined; never consumes or touches a PGT, which stays', async () => {
      const { pgt, pt } = await saveProxiedSession(current());
      const { clock, store } = current();
      expect(await store.consume(pt.id)).to.deep.equal(pt);
      expect(await store.consume(pt.id)).to.equal(undefined);
      expect(await store.get(pt.id)).to.equal(undefined);
      expect(await store.consume(pgt.id)).to.equal(undefined);
      expect(await store.touch(pgt.id, clock.now() + 60_000)).to.equal(undefined);
      expect(await store.get(pgt.id)).to.deep.equal(pgt);
    });

    it('gives one PT to exactly one of 50 concurrent callers spread over both nodes', async () => {
      const { pt } = await saveProxiedSession(current());
      await expectOneWinnerAcrossNodes(current(), pt);
    });

    it("removes a TGT's STs, PGTs and PTs saved on either node, counting them; another session's stay", async () => {
      const { tgt, st, pgt, pt } = await saveProxiedSession(current());
      const { clock, other, store } = current();
      const laterPt = aProxyTicket(clock, { tgtId: tgt.id, grantedBy: pgt.id });
      const chainedPgt = aProxyGrantingTicket(clock, { tgtId: tgt.id, proxies: ['https://third.example.org/cb', ...pgt.proxies] });
      await other.save(laterPt);
      await other.save(chainedPgt);
      const elsewhere = aTicketGrantingTicket(clock);
      const elsewherePgt = aProxyGrantingTicket(clock, { tgtId: elsewhere.id });
      const elsewherePt = aProxyTicket(clock, { tgtId: elsewhere.id, grantedBy: elsewherePgt.id });
      for (const ticket of [elsewhere, elsewherePgt, elsewherePt]) await store.save(ticket);

      await store.remove(tgt.id);
      expect(await store.removeDescendants(tgt.id)).to.equal(5);
      for (const gone of [tgt, st, pgt, pt, laterPt, chainedPgt]) expect(await other.get(gone.id), gone.kind).to.equal(undefined);
      expect(await other.consume(pt.id)).to.equal(undefined);
      for (const kept of [elsewhere, elsewherePgt, elsewherePt]) expect(await other.get(kept.id)).to.deep.equal(kept);
      expect(await store.removeDescendants(tgt.id)).to.equal(0);
    });

    it('counts only the descendants that still exist: not a consumed PT, a removed PGT or an expired PT', async () => {
      const { tgt, st, pgt, pt } = await saveProxiedSession(current());
      const { clock, store } = current();
      const removedPgt = aProxyGrantingTicket(clock, { tgtId: tgt.id });
      const expiredPt = aProxyTicket(clock, { tgtId: tgt.id, grantedBy: pgt.id, expiresAt: clock.now() + 1000 });
      await store.save(removedPgt);
      await store.save(expiredPt);
      await store.consume(pt.id);
      await store.remove(removedPgt.id);
      clock.advance(1000);

      expect(await store.removeDescendants(tgt.id)).to.equal(2);
      for (const gone of [st, pgt]) expect(await store.get(gone.id)).to.equal(undefined);
      expect(await store.get(tgt.id)).to.deep.equal(tgt);
    });
  });
}
