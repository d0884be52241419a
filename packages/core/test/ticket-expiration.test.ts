import { expect } from 'chai';
import { participatesInSingleSignOn, type ProxyPolicy } from '@tessera/core';
import { BrowserLogin } from '@tessera/core/modules/login';
import { GrantProxyTicket, IssueProxyGrantingTicket } from '@tessera/core/modules/proxy';
import { RecordingProxyCallback } from '@tessera/testkit/modules/proxy';
import { password, service } from './fakes.js';
import { coreWithFakes } from './harness.js';

const SHORT = 'https://short.example.org/home';
const PLAIN = 'https://plain.example.org/home';
const BRIEF = 'https://brief.example.org/home';
const proxies: ProxyPolicy = { kind: 'regex', pattern: '^https://short\\.example\\.org/pgt$', useServiceId: false, exactMatch: false };

/** `short`: 60 s sessions, 5 s STs and PTs, 30 s PGTs; `plain`: the defaults (8 h / 2 h, 10 s); `brief`: STs of 2 s, its session lifetime 0 (the default). */
const SERVICES = [
  service({
    id: 1,
    name: 'short',
    serviceId: '^https://short\\.example\\.org/.*',
    proxyPolicy: proxies,
    ticketGrantingTicketExpiration: { maxTimeToLiveInSeconds: 60 },
    serviceTicketExpiration: { numberOfUses: 1, timeToLive: '5' },
    proxyTicketExpiration: { numberOfUses: 1, timeToLive: 'PT5S' },
    proxyGrantingTicketExpiration: { maxTimeToLiveInSeconds: 30 },
  }),
  service({ id: 2, name: 'plain', serviceId: '^https://plain\\.example\\.org/.*' }),
  service({
    id: 3,
    name: 'brief',
    serviceId: '^https://brief\\.example\\.org/.*',
    ticketGrantingTicketExpiration: { maxTimeToLiveInSeconds: 0 },
    // No uses: CAS takes the default lifetime, whatever the time to live says.
    serviceTicketExpiration: { numberOfUses: 0, timeToLive: '2' },
  }),
];

function setUp() {
  const fakes = coreWithFakes(SERVICES);
  const { core } = fakes;
  const tgtFor = (url?: string) => core.createTicketGrantingTicket.execute({ credentials: [password('casuser', 'Mellon')], ...(url !== undefined && { service: url }) });
  const st = async (tgtId: string, url: string) => (await core.grantServiceTicket.execute({ tgtId, service: url, renew: false, credentials: [] })).ticket;
  return { ...fakes, tgtFor, st };
}

describe("a service's own ticket lifetimes (Apereo's per-service expiration policies)", () => {
  it('a login for a service with its own session lifetime gets a TGT of that hard lifetime, which never slides; other logins get tickets.tgt.*', async () => {
    const { clock, tgtFor, st, tickets } = setUp();
    const start = clock.now();
    const own = await tgtFor(SHORT);
    expect(own).to.deep.include({ hardExpiresAt: start + 60_000, expiresAt: start + 60_000, hardTimeout: true });
    const plain = await tgtFor(PLAIN);
    const anonymous = await tgtFor();
    const zero = await tgtFor(BRIEF);
    for (const tgt of [plain, anonymous, zero]) {
      expect(tgt).to.deep.include({ hardExpiresAt: start + 8 * 3600_000, expiresAt: start + 2 * 3600_000 });
      expect(tgt).to.not.have.property('hardTimeout');
    }
    // Granting slides the default session's idle window; the hard-timeout session keeps its end.
    clock.advanceSeconds(50);
    await st(own.id, PLAIN);
    await st(plain.id, PLAIN);
    expect((await tickets.get(own.id))?.expiresAt).to.equal(start + 60_000);
    expect((await tickets.get(plain.id))?.expiresAt).to.equal(clock.now() + 2 * 3600_000);
    clock.set(start + 60_000);
    expect(await tickets.get(own.id)).to.equal(undefined);
    expect(await tickets.get(plain.id)).to.not.equal(undefined);
  });

  it("an ST lives as long as its service's policy says (when it applies), whichever session granted it", async () => {
    const { clock, tgtFor, st } = setUp();
    const tgt = await tgtFor();
    const now = clock.now();
    expect((await st(tgt.id, SHORT)).expiresAt).to.equal(now + 5000);
    expect((await st(tgt.id, PLAIN)).expiresAt).to.equal(now + 10_000);
    expect((await st(tgt.id, BRIEF)).expiresAt, 'numberOfUses 0: the default').to.equal(now + 10_000);
  });

  it("an ST of a service's numberOfUses above 1 validates that many times, a failed validation taking a use too; a policy that does not apply gives one", async () => {
    const fakes = coreWithFakes([
      service({ id: 5, name: 'thrice', serviceId: '^https://thrice\\.example\\.org/.*', serviceTicketExpiration: { numberOfUses: 3, timeToLive: '30' } }),
      service({ id: 6, name: 'unlimited', serviceId: '^https://unlimited\\.example\\.org/.*', serviceTicketExpiration: { numberOfUses: 3 } }),
    ]);
    const { core } = fakes;
    const tgt = await core.createTicketGrantingTicket.execute({ credentials: [password('casuser', 'Mellon')] });
    const grant = async (url: string) => (await core.grantServiceTicket.execute({ tgtId: tgt.id, service: url, renew: false, credentials: [] })).ticket;
    const validation = (ticket: string, url: string) => core.validateServiceTicket.execute({ ticket, service: url, renew: false }).then(({ user }) => user, (error: Error) => error.message);
    const thrice = 'https://thrice.example.org/a';
    const st = await grant(thrice);
    expect(st.usesLeft).to.equal(3);
    expect(await validation(st.id, thrice)).to.equal('casuser');
    expect(await validation(st.id, 'https://thrice.example.org/other')).to.match(/does not match supplied service/);
    expect(await validation(st.id, thrice)).to.equal('casuser');
    expect(await validation(st.id, thrice)).to.match(/not recognized/);
    // No time to live written: CAS's default policy, one use.
    const once = await grant('https://unlimited.example.org/a');
    expect(once).to.not.have.property('usesLeft');
    expect(await validation(once.id, 'https://unlimited.example.org/a')).to.equal('casuser');
    expect(await validation(once.id, 'https://unlimited.example.org/a')).to.match(/not recognized/);
  });

  it("a PT lives as its target's policy says; a PGT as its proxying service's, never past its session", async () => {
    const { core, tickets, events, clock, tgtFor, st } = setUp();
    const callback = new RecordingProxyCallback();
    const issue = new IssueProxyGrantingTicket(core, tickets, callback, events);
    const grant = new GrantProxyTicket(core, tickets, events);
    const tgt = await tgtFor();
    const validated = await core.validateServiceTicket.execute({ ticket: (await st(tgt.id, SHORT)).id, service: SHORT, renew: false });
    await issue.execute({ validated, pgtUrl: 'https://short.example.org/pgt' });
    const pgtId = callback.calls.at(-1)!.pgtId;
    expect((await tickets.get(pgtId))?.expiresAt).to.equal(clock.now() + 30_000);
    const toShort = await grant.execute({ pgt: pgtId, targetService: SHORT });
    const toPlain = await grant.execute({ pgt: pgtId, targetService: PLAIN });
    expect(toShort.expiresAt).to.equal(clock.now() + 5000);
    expect(toPlain.expiresAt).to.equal(clock.now() + 10_000);
    clock.advanceSeconds(30);
    expect(await tickets.get(pgtId)).to.equal(undefined);

    // A session that ends sooner than the PGT's own lifetime takes the PGT with it.
    const own = await tgtFor(SHORT);
    clock.advanceSeconds(45);
    const late = await core.validateServiceTicket.execute({ ticket: (await st(own.id, SHORT)).id, service: SHORT, renew: false });
    await issue.execute({ validated: late, pgtUrl: 'https://short.example.org/pgt' });
    expect((await tickets.get(callback.calls.at(-1)!.pgtId))?.expiresAt).to.equal(own.hardExpiresAt);
  });

  it('single sign-on into a service with its own session lifetime takes only a session younger than that; its participation policy, when it has one, decides instead', async () => {
    const fakes = coreWithFakes([...SERVICES, service({ id: 4, name: 'always', serviceId: '^https://always\\.example\\.org/.*', ticketGrantingTicketExpiration: { maxTimeToLiveInSeconds: 60 }, singleSignOnParticipation: { kind: 'always' } })]);
    const login = new BrowserLogin(fakes.core, fakes.tickets, fakes.events);
    const visit = { renew: false, gateway: false, warn: false };
    const { tgt } = await login.logIn({ ...visit, service: PLAIN, credentials: [password('casuser', 'Mellon')] });
    expect(tgt).to.not.have.property('hardTimeout');
    const session = { ...visit, sessionTgtId: tgt.id };
    fakes.clock.advanceSeconds(60);
    expect(await login.begin({ ...session, service: SHORT })).to.have.property('kind', 'redirect');
    fakes.clock.advanceSeconds(0.001);
    expect(await login.begin({ ...session, service: SHORT })).to.deep.include({ kind: 'credentials', principal: 'casuser' });
    expect(await login.begin({ ...session, service: PLAIN })).to.have.property('kind', 'redirect');
    expect(await login.begin({ ...session, service: 'https://always.example.org/x' })).to.have.property('kind', 'redirect');

    // A new session started by a login for the service gets its lifetime.
    const own = await login.logIn({ ...visit, service: SHORT, credentials: [password('alice', 'secret')] });
    expect(own.tgt).to.deep.include({ hardExpiresAt: fakes.clock.now() + 60_000, hardTimeout: true });
  });

  it("a last-used participation policy reads a hard-timeout session's start as its last use: sooner, never later", () => {
    const tgt = { kind: 'TGT', id: 'TGT-1', createdAt: 0, hardExpiresAt: 600_000, expiresAt: 600_000, servicesGranted: 3, hardTimeout: true } as const;
    const policy = { kind: 'lastUsedTime', timeUnit: 'SECONDS', timeValue: 100, order: 0 } as const;
    const session = { ...tgt, authentication: { principal: { id: 'u', attributes: {} }, authenticatedAt: 0, credentials: [], successes: {}, attributes: {} } };
    expect(participatesInSingleSignOn(policy, session, 99_999, { tgtTimeToKillSeconds: 7200 })).to.equal(true);
    expect(participatesInSingleSignOn(policy, session, 100_000, { tgtTimeToKillSeconds: 7200 })).to.equal(false);
  });
});
