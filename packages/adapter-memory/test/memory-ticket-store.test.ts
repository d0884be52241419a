import { expect } from 'chai';
import { InvalidConfigurationError, StoreCapacityExceededError } from '@tessera/core';
import { MemoryTicketStore } from '@tessera/adapter-memory';
import { FixedClock, aServiceTicket, aTicketGrantingTicket, anAuthentication, rejectionOf } from '@tessera/testkit';

/** The descendant index is private, but the memory it holds is what these tests are about. */
function indexedTgts(store: MemoryTicketStore): number {
  return (store as unknown as { descendants: Map<string, Set<string>> }).descendants.size;
}

/** The shared authentications held, per principal: private too, and what the sharing tests are about. */
function sharedAuthentications(store: MemoryTicketStore): number {
  return [...(store as unknown as { shared: Map<string, unknown[]> }).shared.values()].reduce((total, entries) => total + entries.length, 0);
}

describe('MemoryTicketStore: memory held and bounded', () => {
  let clock: FixedClock;
  beforeEach(() => {
    clock = new FixedClock();
  });

  describe('size and sweep', () => {
    it('counts every ticket held, expired ones until swept', async () => {
      const store = new MemoryTicketStore(clock);
      expect(store.size).to.equal(0);
      const tgt = aTicketGrantingTicket(clock);
      await store.save(tgt);
      await store.save(aServiceTicket(clock, { tgtId: tgt.id }));
      expect(store.size).to.equal(2);
      clock.advanceSeconds(10);
      expect(store.size).to.equal(2);
      expect(store.sweep()).to.equal(1);
      expect(store.size).to.equal(1);
    });

    it('removes expired tickets of both kinds and keeps live ones', async () => {
      const store = new MemoryTicketStore(clock);
      const idle = aTicketGrantingTicket(clock, { expiresAt: clock.now() + 60_000 });
      const active = aTicketGrantingTicket(clock);
      const expiring = aServiceTicket(clock, { tgtId: active.id });
      const fresh = aServiceTicket(clock, { tgtId: active.id, expiresAt: clock.now() + 120_000 });
      for (const ticket of [idle, active, expiring, fresh]) await store.save(ticket);
      clock.advanceSeconds(60);

      expect(store.sweep()).to.equal(2);
      expect(store.size).to.equal(2);
      expect(await store.get(active.id)).to.deep.equal(active);
      expect(await store.get(fresh.id)).to.deep.equal(fresh);
      expect(store.sweep()).to.equal(0);
    });

    it('cleans the descendant index of swept STs, leaving no entry for a TGT without STs', async () => {
      const store = new MemoryTicketStore(clock);
      const tgt = aTicketGrantingTicket(clock);
      const stale = aServiceTicket(clock, { tgtId: tgt.id });
      await store.save(tgt);
      await store.save(stale);
      clock.advanceSeconds(10);
      expect(store.sweep()).to.equal(1);

      expect(indexedTgts(store)).to.equal(0);
      const later = aServiceTicket(clock, { tgtId: tgt.id });
      await store.save(later);
      expect(indexedTgts(store)).to.equal(1);

      expect(await store.removeDescendants(tgt.id)).to.equal(1);
      expect(indexedTgts(store)).to.equal(0);
      expect(store.size).to.equal(1);
    });

    it('cleans the descendant index when STs are consumed or removed', async () => {
      const store = new MemoryTicketStore(clock);
      const tgt = aTicketGrantingTicket(clock);
      const [used, dropped] = [aServiceTicket(clock, { tgtId: tgt.id }), aServiceTicket(clock, { tgtId: tgt.id })];
      for (const ticket of [tgt, used, dropped]) await store.save(ticket);
      await store.consume(used.id);
      expect(indexedTgts(store)).to.equal(1);
      await store.remove(dropped.id);
      expect(indexedTgts(store)).to.equal(0);
    });

    it('drops expired STs from memory when their TGT is logged out', async () => {
      const store = new MemoryTicketStore(clock);
      const tgt = aTicketGrantingTicket(clock);
      await store.save(tgt);
      await store.save(aServiceTicket(clock, { tgtId: tgt.id }));
      clock.advanceSeconds(10);
      expect(await store.removeDescendants(tgt.id)).to.equal(0);
      expect(store.size).to.equal(1);
    });
  });

  describe('TGTs held small: one authentication shared by the TGTs of the same login', () => {
    it('TGTs of the same login share its principal and attributes, and each keeps its own times', async () => {
      const store = new MemoryTicketStore(clock);
      const first = aTicketGrantingTicket(clock);
      clock.advanceSeconds(5);
      const second = aTicketGrantingTicket(clock);
      for (const tgt of [first, second]) await store.save(tgt);
      const [readFirst, readSecond] = [await store.get(first.id), await store.get(second.id)];
      expect(readFirst).to.deep.equal(first);
      expect(readSecond).to.deep.equal(second);
      expect(readFirst?.kind === 'TGT' && readSecond?.kind === 'TGT' && readFirst.authentication.principal === readSecond.authentication.principal).to.equal(true);
      expect(sharedAuthentications(store)).to.equal(1);
    });

    it('a login that differs in anything but its time (attributes, credentials, handlers) is held apart', async () => {
      const store = new MemoryTicketStore(clock);
      const base = anAuthentication({ authenticatedAt: clock.now() });
      const variants = [
        base,
        { ...base, principal: { id: 'casuser', attributes: { ...base.principal.attributes, memberOf: ['staff'] } } },
        { ...base, credentials: [...base.credentials, { id: 'casuser', type: 'otp' as const }] },
        { ...base, attributes: { ...base.attributes, successfulAuthenticationHandlers: ['ldap'] } },
        { ...base, principal: { ...base.principal, id: 'alice' } },
      ];
      const tgts = variants.map((authentication) => aTicketGrantingTicket(clock, { authentication }));
      for (const tgt of tgts) await store.save(tgt);
      for (const tgt of tgts) expect(await store.get(tgt.id)).to.deep.equal(tgt);
      expect(sharedAuthentications(store)).to.equal(5);
    });

    it('a shared authentication goes with the last TGT holding it: logout, sweep, or the TGT saved again', async () => {
      const store = new MemoryTicketStore(clock);
      const [kept, loggedOut] = [aTicketGrantingTicket(clock), aTicketGrantingTicket(clock)];
      const expiring = aTicketGrantingTicket(clock, { authentication: anAuthentication({ principal: { id: 'alice', attributes: {} } }), expiresAt: clock.now() + 1000 });
      for (const tgt of [kept, loggedOut, expiring]) await store.save(tgt);
      expect(sharedAuthentications(store)).to.equal(2);
      await store.remove(loggedOut.id);
      clock.advanceSeconds(2);
      expect(store.sweep()).to.equal(1);
      expect(sharedAuthentications(store)).to.equal(1);
      await store.save(kept);
      expect(await store.liveTgts()).to.equal(1);
      await store.remove(kept.id);
      expect(sharedAuthentications(store)).to.equal(0);
      expect(await store.liveTgts()).to.equal(0);
    });

    it('touch slides the expiry and counts the grant on the TGT held, leaving what was read before as it was', async () => {
      const store = new MemoryTicketStore(clock);
      const tgt = aTicketGrantingTicket(clock);
      await store.save(tgt);
      const before = await store.get(tgt.id);
      const touched = await store.touch(tgt.id, tgt.expiresAt + 60_000);
      expect(touched).to.deep.equal({ ...tgt, expiresAt: tgt.expiresAt + 60_000, servicesGranted: 1 });
      expect(await store.get(tgt.id)).to.deep.equal(touched);
      expect(before).to.deep.equal(tgt);
    });
  });

  describe('capacity (maxTickets)', () => {
    async function fullStore(maxTickets: number) {
      const store = new MemoryTicketStore(clock, { maxTickets });
      const tickets = Array.from({ length: maxTickets }, () => aServiceTicket(clock));
      for (const ticket of tickets) await store.save(ticket);
      return { store, tickets };
    }

    it('refuses a new ticket with StoreCapacityExceededError when every ticket is live', async () => {
      const { store, tickets } = await fullStore(3);
      const extra = aServiceTicket(clock);
      const error = await rejectionOf(store.save(extra));
      expect(error).to.be.instanceOf(StoreCapacityExceededError);
      expect((error as StoreCapacityExceededError).code).to.equal('STORE_CAPACITY_EXCEEDED');
      expect((error).message).to.contain('maxTickets 3');
      expect(await store.get(extra.id)).to.equal(undefined);
      for (const ticket of tickets) expect(await store.get(ticket.id)).to.deep.equal(ticket);
      expect(store.size).to.equal(3);
    });

    it('sweeps expired tickets itself when full, making room', async () => {
      const { store } = await fullStore(3);
      await rejectionOf(store.save(aServiceTicket(clock)));
      clock.advanceSeconds(10);
      const next = aServiceTicket(clock);
      await store.save(next);
      expect(await store.get(next.id)).to.deep.equal(next);
      expect(store.size).to.equal(1);
    });

    it('takes a new ticket after an explicit sweep frees room', async () => {
      const { store } = await fullStore(2);
      clock.advanceSeconds(10);
      expect(store.sweep()).to.equal(2);
      await store.save(aServiceTicket(clock));
      await store.save(aServiceTicket(clock));
      expect(store.size).to.equal(2);
    });

    it('rejects a maxTickets that is not a positive integer, naming the setting', () => {
      for (const maxTickets of [0, -1, 1.5, Number.NaN]) {
        expect(() => new MemoryTicketStore(clock, { maxTickets })).to.throw(InvalidConfigurationError, 'maxTickets');
      }
    });
  });
});
