import { expect } from 'chai';
import { CAS_SERVICES_ONLY, defaultTicketLifetimes, ticketFingerprint, type RequestOrigin } from '@tessera/core';
import { RecordServiceSessionStore, SERVICE_SESSION_NAMESPACE, SingleLogout } from '@tessera/core/modules/login';
import { MapRecordStores, SeededRandomSource, testCore } from '@tessera/testkit';
import { RecordingLogoutSender } from '@tessera/testkit/modules/login';
import { FixedClock, ListServiceRegistry, MapTicketStore, RecordingEvents, TableHandler, password, service } from '../../fakes.js';

const SLO = 'https://slo.example.org';
const origin: RequestOrigin = { clientAddress: '192.0.2.7', requestId: 'validation-1', endpoint: 'GET /cas/p3/serviceValidate' };

/** A core whose session listener is single logout on fakes; `slo.example.org` is opted in, `app.example.org` not. */
function setUp(maxPerSession?: number) {
  const clock = new FixedClock();
  const tickets = new MapTicketStore(clock);
  const registry = new ListServiceRegistry([
    service({ id: 1, serviceId: '^https://app\\.example\\.org/.*' }),
    service({ id: 2, name: 'slo', serviceId: '^https://slo\\.example\\.org/.*', logoutType: 'BACK_CHANNEL' }),
  ]);
  const events = new RecordingEvents();
  const records = new MapRecordStores(clock);
  const sessions = new RecordServiceSessionStore(records);
  /** How many TGTs have single-logout records. */
  const recorded = () => records.namespaces.get(SERVICE_SESSION_NAMESPACE)?.size ?? 0;
  const sender = new RecordingLogoutSender();
  const random = new SeededRandomSource('single logout');
  const singleLogout = new SingleLogout(sessions, tickets, registry, CAS_SERVICES_ONLY, sender, clock, random, events, maxPerSession);
  const handler = new TableHandler('table', { casuser: { password: 'Mellon' } });
  const core = testCore({ tickets, registry, handlers: [handler], clock, random, nodeName: 'test', lifetimes: defaultTicketLifetimes, events, sessionListener: singleLogout });
  const logIn = async () => (await core.createTicketGrantingTicket.execute({ credentials: [password('casuser', 'Mellon')] })).id;
  const grant = async (tgtId: string, url: string) => (await core.grantServiceTicket.execute({ tgtId, service: url, renew: false, credentials: [] })).ticket.id;
  const validate = (ticket: string, url: string) => core.validateServiceTicket.execute({ ticket, service: url, renew: false, origin });
  const told = () => sender.sent.map((delivery) => delivery.session.ticketId);
  return { core, clock, singleLogout, sessions, recorded, sender, events, logIn, grant, validate, told };
}

// docs/protocol.md §12.4: which sessions single logout keeps, and how many.
describe('single logout in core (docs/protocol.md §12.4)', () => {
  it('tells only the tickets that were validated: a ticket granted and never validated opened no session', async () => {
    const { core, logIn, grant, validate, told, recorded } = setUp();
    const tgt = await logIn();
    const validated = await grant(tgt, `${SLO}/validated`);
    await grant(tgt, `${SLO}/never-validated`);
    expect(recorded(), 'granting records nothing').to.equal(0);
    await validate(validated, `${SLO}/validated`);
    await core.destroyTicketGrantingTicket.execute(tgt);
    expect(told()).to.deep.equal([validated]);
  });

  it('records nothing for a validation that failed, or for a service not opted in', async () => {
    const { core, logIn, grant, validate, told, recorded } = setUp();
    const tgt = await logIn();
    const mismatched = await grant(tgt, `${SLO}/a`);
    await validate(mismatched, `${SLO}/b`).catch(() => undefined);
    await validate(await grant(tgt, 'https://app.example.org/'), 'https://app.example.org/');
    expect(recorded()).to.equal(0);
    await core.destroyTicketGrantingTicket.execute(tgt);
    expect(told()).to.deep.equal([]);
  });

  it('keeps the newest `maxPerSession` validated tickets of a session, reporting each one dropped with the validation that dropped it', async () => {
    const { core, logIn, grant, validate, told, events } = setUp(3);
    const tgt = await logIn();
    const validated: string[] = [];
    for (let n = 1; n <= 5; n += 1) {
      const url = `${SLO}/${n}`;
      const ticket = await grant(tgt, url);
      await validate(ticket, url);
      validated.push(ticket);
    }
    const dropped = events.ofType('logout.request.dropped');
    expect(dropped).to.deep.equal(
      [1, 2].map((n) => ({ type: 'logout.request.dropped', service: `${SLO}/${n}`, ticket: ticketFingerprint(validated[n - 1]!), principal: 'casuser', limit: 3 })),
    );
    expect(dropped.map((event) => events.origins.get(event))).to.deep.equal([origin, origin]);
    await core.destroyTicketGrantingTicket.execute(tgt);
    expect(told()).to.deep.equal(validated.slice(2));
  });

  it('holds 100 per session unless told otherwise', async () => {
    const { logIn, grant, validate, events, sessions } = setUp();
    const tgt = await logIn();
    for (let n = 0; n < 101; n += 1) await validate(await grant(tgt, `${SLO}/${n}`), `${SLO}/${n}`);
    expect(events.ofType('logout.request.dropped').map((event) => event.service)).to.deep.equal([`${SLO}/0`]);
    expect(await sessions.take(tgt)).to.have.length(100);
  });

  it('an expired session is told at the first expiry check after its end, each validated ticket once', async () => {
    const { clock, singleLogout, logIn, grant, validate, sender } = setUp();
    const tgt = await logIn();
    const ticket = await grant(tgt, `${SLO}/x`);
    await validate(ticket, `${SLO}/x`);
    clock.advanceSeconds(defaultTicketLifetimes.tgtTimeToKillSeconds - 1);
    expect(await singleLogout.endExpired()).to.equal(0);
    clock.advanceSeconds(1);
    await singleLogout.endExpired();
    await singleLogout.endExpired();
    expect(sender.sent.map((delivery) => [delivery.session.ticketId, delivery.trigger])).to.deep.equal([[ticket, 'expiry']]);
  });
});
