import { expect } from 'chai';
import { type ServiceRegistry, type TicketStore } from '@tessera/core';
import { SingleLogout, type LogoutDelivery, type ServiceSessionStore } from '@tessera/core/modules/login';
import { aRegisteredService, aTicketGrantingTicket } from './builders.js';
import { FixedClock } from './fixed-clock.js';
import { SeededRandomSource } from './seeded-random-source.js';

export interface SingleLogoutStores {
  readonly tickets: TicketStore;
  readonly sessions: ServiceSessionStore;
  readonly registry: ServiceRegistry;
}

export type SingleLogoutStoresFactory = (clock: FixedClock) => SingleLogoutStores | Promise<SingleLogoutStores>;

const HOUR = 3_600_000;
const SERVICE = 'https://slo.example.org/app';

/**
 * Single logout on an adapter's stores (core's SingleLogout): how the end of a TGT is noticed there,
 * a logout at once, an expiry at the first check after it, with a clock the test moves.
 */
export function describeSingleLogoutOnStores(name: string, factory: SingleLogoutStoresFactory): void {
  describe(`single logout on the stores: ${name}`, () => {
    async function setUp() {
      const clock = new FixedClock();
      const stores = await factory(clock);
      const sent: LogoutDelivery[] = [];
      const singleLogout = new SingleLogout(stores.sessions, stores.tickets, stores.registry, { send: (delivery) => sent.push(delivery) }, clock, new SeededRandomSource());
      const service = await stores.registry.save(aRegisteredService({ id: 1, serviceId: '^https://slo\\.example\\.org/.*', logoutType: 'BACK_CHANNEL', logoutUrl: 'https://slo.example.org/logout' }));
      const tgt = aTicketGrantingTicket(clock);
      await stores.tickets.save(tgt);
      await singleLogout.granted(tgt, { id: 'ST-7-aaaaaaaaaaaaaaaaaaaaaa-test', service: SERVICE }, service);
      return { clock, stores, sent, singleLogout, tgt, service };
    }

    it('tells the services of a TGT that expired at the first check after its expiry, once', async () => {
      const { clock, sent, singleLogout, tgt } = await setUp();
      clock.set(tgt.expiresAt - 1);
      expect(await singleLogout.endExpired()).to.equal(0);
      expect(sent).to.deep.equal([]);
      clock.set(tgt.expiresAt);
      expect(await singleLogout.endExpired()).to.equal(1);
      expect(sent).to.have.length(1);
      expect(sent[0]).to.deep.include({ url: 'https://slo.example.org/logout', trigger: 'expiry', session: { ticketId: 'ST-7-aaaaaaaaaaaaaaaaaaaaaa-test', service: SERVICE, principal: 'casuser' } });
      expect(sent[0]!.logoutRequest).to.include('<samlp:SessionIndex>ST-7-aaaaaaaaaaaaaaaaaaaaaa-test</samlp:SessionIndex>');
      clock.advance(HOUR);
      expect(await singleLogout.endExpired()).to.equal(0);
      expect(sent).to.have.length(1);
    });

    it('postpones the check of a TGT whose idle timer was reset, and tells its services when it finally expires', async () => {
      const { clock, stores, sent, singleLogout, tgt } = await setUp();
      clock.set(tgt.expiresAt - HOUR);
      const touched = await stores.tickets.touch(tgt.id, clock.now() + 2 * HOUR);
      clock.set(tgt.expiresAt);
      expect(await singleLogout.endExpired()).to.equal(1);
      expect(sent, 'the TGT lives on').to.deep.equal([]);
      expect(await singleLogout.endExpired(), 'postponed to its new expiry').to.equal(0);
      clock.set(touched!.expiresAt);
      await singleLogout.endExpired();
      expect(sent.map((delivery) => delivery.trigger)).to.deep.equal(['expiry']);
    });

    it('a logout tells the services at once; the expiry check finds nothing left', async () => {
      const { clock, stores, sent, singleLogout, tgt } = await setUp();
      await stores.tickets.remove(tgt.id);
      await singleLogout.ended(tgt.id);
      expect(sent.map((delivery) => delivery.trigger)).to.deep.equal(['logout']);
      clock.set(tgt.hardExpiresAt + HOUR);
      expect(await singleLogout.endExpired()).to.equal(0);
      expect(sent).to.have.length(1);
    });

    it('does not tell a service that is no longer opted in, or no longer registered', async () => {
      const { stores, sent, singleLogout, tgt, service } = await setUp();
      await stores.registry.save({ ...service, logoutType: 'NONE' });
      await singleLogout.ended(tgt.id);
      expect(sent).to.deep.equal([]);
    });

    it('records nothing for a service that did not opt in', async () => {
      const { clock, stores, sent, singleLogout, tgt } = await setUp();
      const other = aRegisteredService({ serviceId: '^https://other\\.example\\.org/.*' });
      await singleLogout.granted(tgt, { id: 'ST-8-bbbbbbbbbbbbbbbbbbbbbb-test', service: 'https://other.example.org/' }, other);
      await stores.tickets.remove(tgt.id);
      clock.set(tgt.hardExpiresAt);
      await singleLogout.endExpired();
      expect(sent.map((delivery) => delivery.session.ticketId)).to.deep.equal(['ST-7-aaaaaaaaaaaaaaaaaaaaaa-test']);
    });
  });
}
