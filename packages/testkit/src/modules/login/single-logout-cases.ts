import { expect } from 'chai';
import { CAS_SERVICES_ONLY, defaultTicketLifetimes, ticketFingerprint, type ServiceRegistry, type TicketStore } from '@tessera/core';
import { SingleLogout, type LogoutRequestDroppedEvent, type ServiceSessionStore } from '@tessera/core/modules/login';
import { aRegisteredService, aTicketGrantingTicket } from '../../builders.js';
import { RecordingEvents } from '../../fakes.js';
import { RecordingLogoutSender } from './recording-logout-sender.js';
import { FixedClock } from '../../fixed-clock.js';
import { SeededRandomSource } from '../../seeded-random-source.js';
import { testCore } from '../../test-core.js';

export interface SingleLogoutStores {
  readonly tickets: TicketStore;
  readonly sessions: ServiceSessionStore;
  readonly registry: ServiceRegistry;
}

export type SingleLogoutStoresFactory = (clock: FixedClock) => SingleLogoutStores | Promise<SingleLogoutStores>;

const HOUR = 3_600_000;
const SERVICE = 'https://slo.example.org/app';

/**
 * Single logout on a storage's tickets, services and single-logout records (core's SingleLogout): which tickets it records (validated ones
 * only, the newest `maxPerSession` of a session), and how the end of a TGT is noticed there, a logout
 * at once, an expiry at the first check after it, with a clock the test moves.
 */
export function describeSingleLogoutOnStores(name: string, factory: SingleLogoutStoresFactory): void {
  describe(`single logout on the stores: ${name}`, () => {
    async function setUp(maxPerSession?: number) {
      const clock = new FixedClock();
      const stores = await factory(clock);
      const sender = new RecordingLogoutSender();
      const events = new RecordingEvents();
      const singleLogout = new SingleLogout(stores.sessions, stores.tickets, stores.registry, CAS_SERVICES_ONLY, sender, clock, new SeededRandomSource(), events, maxPerSession);
      const service = await stores.registry.save(aRegisteredService({ id: 1, serviceId: '^https://slo\\.example\\.org/.*', logoutType: 'BACK_CHANNEL', logoutUrl: 'https://slo.example.org/logout' }));
      const tgt = aTicketGrantingTicket(clock);
      await stores.tickets.save(tgt);
      await singleLogout.validated(tgt, { id: 'ST-7-aaaaaaaaaaaaaaaaaaaaaa-test', service: SERVICE }, service);
      return { clock, stores, sent: sender.sent, events, singleLogout, tgt, service };
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
      await singleLogout.validated(tgt, { id: 'ST-8-bbbbbbbbbbbbbbbbbbbbbb-test', service: 'https://other.example.org/' }, other);
      await stores.tickets.remove(tgt.id);
      clock.set(tgt.hardExpiresAt);
      await singleLogout.endExpired();
      expect(sent.map((delivery) => delivery.session.ticketId)).to.deep.equal(['ST-7-aaaaaaaaaaaaaaaaaaaaaa-test']);
    });

    it('keeps the newest `maxPerSession` of a session, each one dropped reported once', async () => {
      const { stores, sent, events, singleLogout, tgt, service } = await setUp(2);
      for (const n of [8, 9]) await singleLogout.validated(tgt, { id: `ST-${n}-aaaaaaaaaaaaaaaaaaaaaa-test`, service: `${SERVICE}/${n}` }, service);
      expect(events.ofType<LogoutRequestDroppedEvent>('logout.request.dropped')).to.deep.equal([{ type: 'logout.request.dropped', service: SERVICE, ticket: ticketFingerprint('ST-7-aaaaaaaaaaaaaaaaaaaaaa-test'), principal: 'casuser', limit: 2 }]);
      await stores.tickets.remove(tgt.id);
      await singleLogout.ended(tgt.id);
      expect(sent.map((delivery) => delivery.session.ticketId)).to.deep.equal(['ST-8-aaaaaaaaaaaaaaaaaaaaaa-test', 'ST-9-aaaaaaaaaaaaaaaaaaaaaa-test']);
    });

    it('a validation that lands after the logout took the records tells its service at once', async () => {
      const { stores, sent, singleLogout, tgt, service } = await setUp();
      await stores.tickets.remove(tgt.id);
      await singleLogout.ended(tgt.id);
      await singleLogout.validated(tgt, { id: 'ST-8-aaaaaaaaaaaaaaaaaaaaaa-test', service: SERVICE }, service);
      expect(sent.map((delivery) => [delivery.session.ticketId, delivery.trigger])).to.deep.equal([
        ['ST-7-aaaaaaaaaaaaaaaaaaaaaa-test', 'logout'],
        ['ST-8-aaaaaaaaaaaaaaaaaaaaaa-test', 'logout'],
      ]);
    });

    it('through the use cases: only tickets that were validated are told', async () => {
      const clock = new FixedClock();
      const stores = await factory(clock);
      const sender = new RecordingLogoutSender();
      const events = new RecordingEvents();
      const singleLogout = new SingleLogout(stores.sessions, stores.tickets, stores.registry, CAS_SERVICES_ONLY, sender, clock, new SeededRandomSource(), events);
      const core = testCore({ ...stores, handlers: [], clock, random: new SeededRandomSource(), nodeName: 'test', lifetimes: defaultTicketLifetimes, events, sessionListener: singleLogout });
      await stores.registry.save(aRegisteredService({ id: 1, serviceId: '^https://slo\\.example\\.org/.*', logoutType: 'BACK_CHANNEL' }));
      const tgt = aTicketGrantingTicket(clock);
      await stores.tickets.save(tgt);
      const grant = async (path: string) => (await core.grantServiceTicket.execute({ tgtId: tgt.id, service: `${SERVICE}/${path}`, renew: false, credentials: [] })).ticket;
      const validatedOne = await grant('validated');
      await grant('never-validated');
      const refusedOne = await grant('wrong-service');
      await core.validateServiceTicket.execute({ ticket: validatedOne.id, service: validatedOne.service, renew: false });
      await core.validateServiceTicket.execute({ ticket: refusedOne.id, service: 'https://slo.example.org/elsewhere', renew: false }).catch(() => undefined);
      await core.destroyTicketGrantingTicket.execute(tgt.id);
      expect(sender.sent.map((delivery) => delivery.session)).to.deep.equal([{ ticketId: validatedOne.id, service: `${SERVICE}/validated`, principal: 'casuser' }]);
    });
  });
}
