import { expect } from 'chai';
import {
  defaultTicketLifetimes,
  sessionTag,
  sessionTagOfGrantedTicket,
  TicketValidationError,
  type ProxyPolicy,
  type RegisteredService,
  type SessionListener,
} from '@tessera/core';
import { allowsProxyCallback, GrantProxyTicket, IssueProxyGrantingTicket, proxyCallbackUrl } from '@tessera/core/modules/proxy';
import { RecordingProxyCallback } from '@tessera/testkit/modules/proxy';
import { password, service } from '../../fakes.js';
import { APP, coreWithFakes } from '../../harness.js';

const CALLBACK = 'https://app.example.org/pgtCallback';
const BACKEND = 'https://backend.example.org/api';
const SECOND_CALLBACK = 'https://backend.example.org/pgtCallback';
const regex = (pattern: string, options: Partial<Extract<ProxyPolicy, { kind: 'regex' }>> = {}): ProxyPolicy => ({ kind: 'regex', pattern, useServiceId: false, exactMatch: false, ...options });

/** The app may proxy to its callback; the back end (which may proxy too) and a staff-only and a no-SSO service are registered. */
function setUp(services: readonly RegisteredService[] = SERVICES) {
  const recorded: { tgtId: string; ticket: string; service: number }[] = [];
  const listener: SessionListener = {
    validated: (tgt, ticket, registered) => {
      recorded.push({ tgtId: tgt.id, ticket: ticket.id, service: registered.id });
      return Promise.resolve();
    },
    ended: () => Promise.resolve(),
  };
  const fakes = coreWithFakes(services, listener);
  const { core, tickets, events } = fakes;
  const callback = new RecordingProxyCallback();
  const issue = new IssueProxyGrantingTicket(core, tickets, callback, events);
  const grant = new GrantProxyTicket(core, tickets, events);

  const login = async () => core.createTicketGrantingTicket.execute({ credentials: [password('casuser', 'Mellon')] });
  const st = async (tgtId: string, url = APP) => (await core.grantServiceTicket.execute({ tgtId, service: url, renew: false, credentials: [] })).ticket.id;
  const validate = (ticket: string, url: string, proxyTickets = true, renew = false) => core.validateServiceTicket.execute({ ticket, service: url, renew, proxyTickets });
  /** Validates a fresh ST of a new login with pgtUrl; the PGT the callback got, and the IOU. */
  const pgtFor = async (pgtUrl = CALLBACK) => {
    const tgt = await login();
    const iou = await issue.execute({ validated: await validate(await st(tgt.id), APP), pgtUrl });
    const pgtId = callback.calls.at(-1)?.pgtId;
    return { tgt, iou, pgtId: pgtId! };
  };
  return { ...fakes, callback, recorded, issue, grant, login, st, validate, pgtFor };
}

const SERVICES = [
  service({ id: 1, serviceId: '^https://app\\.example\\.org/.*', proxyPolicy: regex('^https://app\\.example\\.org/pgtCallback$') }),
  service({ id: 2, name: 'backend', serviceId: '^https://backend\\.example\\.org/.*', proxyPolicy: regex('^https://backend\\.example\\.org/.*') }),
  service({ id: 3, name: 'staff', serviceId: '^https://staff\\.example\\.org/.*', accessStrategy: { enabled: true, ssoEnabled: true, requiredAttributes: { memberOf: ['admins'] } } }),
  service({ id: 4, name: 'nosso', serviceId: '^https://nosso\\.example\\.org/.*', accessStrategy: { enabled: true, ssoEnabled: false, requiredAttributes: {} } }),
];

async function failureCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(TicketValidationError);
    return (error as TicketValidationError).casCode;
  }
  return expect.fail('expected a CAS failure');
}

// docs/protocol.md §13: proxy tickets, their policy and their callback.
describe('proxy module core (docs/protocol.md §13)', () => {
  describe('the proxy policy of a service', () => {
    it('a regex policy admits a pgtUrl its pattern matches as a whole, case ignored, and nothing else', () => {
      const app = service({ proxyPolicy: regex('^https://app\\.example\\.org/pgt.*') });
      expect(allowsProxyCallback(app, 'https://APP.example.org/pgtCallback?x=1')).to.equal(true);
      expect(allowsProxyCallback(service({ proxyPolicy: regex('https://app\\.example\\.org/pgt') }), 'https://evil.example.net/?https://app.example.org/pgt')).to.equal(false);
      expect(allowsProxyCallback(app, 'https://app.example.org.evil.example.net/pgtCallback')).to.equal(false);
    });

    it('useServiceId takes the serviceId as the pattern; exactMatch wants the URL itself', () => {
      expect(allowsProxyCallback(service({ serviceId: '^https://app\\.example\\.org/.*', proxyPolicy: regex('', { useServiceId: true }) }), CALLBACK)).to.equal(true);
      expect(allowsProxyCallback(service({ proxyPolicy: regex(CALLBACK, { exactMatch: true }) }), CALLBACK)).to.equal(true);
      expect(allowsProxyCallback(service({ proxyPolicy: regex(CALLBACK, { exactMatch: true }) }), `${CALLBACK}x`)).to.equal(false);
    });

    it('no policy, or the refusing one, admits no pgtUrl', () => {
      expect(allowsProxyCallback(service(), CALLBACK)).to.equal(false);
      expect(allowsProxyCallback(service({ proxyPolicy: { kind: 'refuse' } }), CALLBACK)).to.equal(false);
    });

    it('the callback is called at the pgtUrl with its own parameters kept, then pgtIou and pgtId, without a fragment', () => {
      const url = proxyCallbackUrl({ url: 'https://app.example.org/cb?tenant=a&x=%2F#frag', pgtId: 'PGT-1-abc', pgtIou: 'PGTIOU-2-def' });
      expect(url.toString()).to.equal('https://app.example.org/cb?tenant=a&x=%2F&pgtIou=PGTIOU-2-def&pgtId=PGT-1-abc');
    });
  });

  describe('a PGT for a validation with pgtUrl', () => {
    it('is stored under the session, delivered with its IOU, and named by the IOU', async () => {
      const { tickets, callback, events, pgtFor } = setUp();
      const { tgt, iou, pgtId } = await pgtFor();
      expect(iou).to.match(/^PGTIOU-\d+-[A-Za-z0-9-]{22}-test$/);
      expect(callback.calls).to.deep.equal([{ url: CALLBACK, pgtId, pgtIou: iou }]);
      expect(pgtId).to.match(/^PGT-\d+-/);
      expect(sessionTagOfGrantedTicket(pgtId)).to.equal(sessionTag(tgt.id));
      expect(await tickets.get(pgtId)).to.deep.include({ kind: 'PGT', tgtId: tgt.id, service: APP, proxies: [CALLBACK], expiresAt: tgt.hardExpiresAt });
      const [created] = events.ofType('ticket.created').filter((event) => event.kind === 'PGT');
      expect(created).to.deep.include({ principal: 'casuser', service: APP, proxy: CALLBACK });
      expect(created!.ticket).to.match(/^PGT-\d+#[0-9a-f]{12}$/);
    });

    it('is not issued when the callback does not take it: removed again, reported with the reason, the answer without an IOU', async () => {
      const { tickets, callback, events, pgtFor } = setUp();
      callback.outcome = { delivered: false, reason: 'status', status: 500 };
      const { iou, pgtId } = await pgtFor();
      expect(iou).to.equal(undefined);
      expect(await tickets.get(pgtId)).to.equal(undefined);
      expect(events.ofType('proxy.callback.failed')).to.have.length(1);
      expect(events.ofType('proxy.callback.failed')[0]).to.deep.include({ proxy: CALLBACK, service: APP, principal: 'casuser', reason: 'status', status: 500 });
      expect(events.ofType('ticket.created').filter((event) => event.kind === 'PGT')).to.deep.equal([]);
    });

    it('is refused without calling anything for a URL that is not https, or one the policy does not admit', async () => {
      const { callback, events, pgtFor } = setUp();
      expect((await pgtFor('http://app.example.org/pgtCallback')).iou).to.equal(undefined);
      expect((await pgtFor('https://app.example.org/elsewhere')).iou).to.equal(undefined);
      expect((await pgtFor('not a url')).iou).to.equal(undefined);
      expect(callback.calls).to.deep.equal([]);
      expect(events.ofType('ticket.refused').map(({ kind, reason, proxy }) => ({ kind, reason, proxy }))).to.deep.equal([
        { kind: 'PGT', reason: 'CALLBACK_NOT_HTTPS', proxy: 'http://app.example.org/pgtCallback' },
        { kind: 'PGT', reason: 'PROXY_NOT_ALLOWED', proxy: 'https://app.example.org/elsewhere' },
        { kind: 'PGT', reason: 'CALLBACK_NOT_HTTPS', proxy: 'not a url' },
      ]);
    });

    it('is refused to a service without a proxy policy', async () => {
      const { callback, pgtFor } = setUp([service({ id: 1, serviceId: '^https://app\\.example\\.org/.*' })]);
      expect((await pgtFor()).iou).to.equal(undefined);
      expect(callback.calls).to.deep.equal([]);
    });
  });

  describe('GET /proxy: a PT for a target service', () => {
    it('is one-time, carries the session tag, validates on the proxy paths with the chain, and counts as a use of the session', async () => {
      const { tickets, clock, grant, validate, recorded, pgtFor } = setUp();
      const { tgt, pgtId } = await pgtFor();
      clock.advanceSeconds(600);
      const pt = await grant.execute({ pgt: pgtId, targetService: BACKEND });
      expect(pt.id).to.match(/^PT-\d+-[A-Za-z0-9-]{26}-test$/);
      expect(sessionTagOfGrantedTicket(pt.id)).to.equal(sessionTag(tgt.id));
      expect(pt).to.deep.include({ tgtId: tgt.id, grantedBy: pgtId, service: BACKEND, proxies: [CALLBACK], expiresAt: clock.now() + 10_000 });
      expect(await tickets.get(tgt.id)).to.deep.include({ servicesGranted: 2, expiresAt: clock.now() + defaultTicketLifetimes.tgtTimeToKillSeconds * 1000 });
      const recordedPt = () => recorded.filter((entry) => entry.ticket === pt.id);
      expect(recordedPt(), 'a PT is recorded for single logout only once validated').to.deep.equal([]);

      const validated = await validate(pt.id, BACKEND);
      expect(recordedPt()).to.deep.equal([{ tgtId: tgt.id, ticket: pt.id, service: 2 }]);
      expect(validated).to.deep.include({ user: 'casuser', proxies: [CALLBACK] });
      expect(validated.attributes['isFromNewLogin']).to.deep.equal(['false']);
      expect(await failureCode(validate(pt.id, BACKEND))).to.equal('INVALID_TICKET');
    });

    it('is refused, and burnt, where only STs are validated, and by renew=true', async () => {
      const { grant, validate, pgtFor } = setUp();
      const { pgtId } = await pgtFor();
      const pt = await grant.execute({ pgt: pgtId, targetService: BACKEND });
      expect(await failureCode(validate(pt.id, BACKEND, false))).to.equal('INVALID_TICKET');
      expect(await failureCode(validate(pt.id, BACKEND))).to.equal('INVALID_TICKET');
      const another = await grant.execute({ pgt: pgtId, targetService: BACKEND });
      expect(await failureCode(validate(another.id, BACKEND, true, true))).to.equal('INVALID_TICKET');
    });

    it('answers INVALID_REQUEST without pgt or targetService, INVALID_TICKET for anything but a live PGT', async () => {
      const { grant, login, st, pgtFor } = setUp();
      const { tgt, pgtId } = await pgtFor();
      expect(await failureCode(grant.execute({ pgt: pgtId, targetService: undefined }))).to.equal('INVALID_REQUEST');
      expect(await failureCode(grant.execute({ pgt: '', targetService: BACKEND }))).to.equal('INVALID_REQUEST');
      for (const notAPgt of ['PGT-1-unknown-test', tgt.id, await st((await login()).id)]) {
        expect(await failureCode(grant.execute({ pgt: notAPgt, targetService: BACKEND })), notAPgt.slice(0, 4)).to.equal('INVALID_TICKET');
      }
    });

    it('answers UNAUTHORIZED_SERVICE for a target not registered, outside single sign-on, or refusing the principal, and reports why', async () => {
      const { grant, events, pgtFor } = setUp();
      const { pgtId } = await pgtFor();
      for (const target of ['https://unknown.example.com/', 'https://nosso.example.org/x', 'https://staff.example.org/x']) {
        expect(await failureCode(grant.execute({ pgt: pgtId, targetService: target })), target).to.equal('UNAUTHORIZED_SERVICE');
      }
      expect(events.ofType('ticket.refused').map(({ kind, reason, principal }) => ({ kind, reason, principal }))).to.deep.equal([
        { kind: 'PT', reason: 'SERVICE_NOT_AUTHORIZED', principal: 'casuser' },
        { kind: 'PT', reason: 'SSO_NOT_ALLOWED', principal: 'casuser' },
        { kind: 'PT', reason: 'PRINCIPAL_NOT_ALLOWED', principal: 'casuser' },
      ]);
    });

    it('answers UNAUTHORIZED_SERVICE once the proxy may no longer proxy to its callback', async () => {
      const { grant, registry, pgtFor } = setUp();
      const { pgtId } = await pgtFor();
      await registry.save(service({ id: 1, serviceId: '^https://app\\.example\\.org/.*', proxyPolicy: regex('^https://app\\.example\\.org/other$') }));
      expect(await failureCode(grant.execute({ pgt: pgtId, targetService: BACKEND }))).to.equal('UNAUTHORIZED_SERVICE');
    });

    it('chains: a PT validated with a pgtUrl gives the back end a PGT whose PTs list both proxies, most recent first', async () => {
      const { grant, issue, validate, callback, pgtFor } = setUp();
      const { pgtId } = await pgtFor();
      const first = await grant.execute({ pgt: pgtId, targetService: BACKEND });
      const iou = await issue.execute({ validated: await validate(first.id, BACKEND), pgtUrl: SECOND_CALLBACK });
      expect(iou).to.match(/^PGTIOU-/);
      const secondPgt = callback.calls.at(-1)!.pgtId;
      const second = await grant.execute({ pgt: secondPgt, targetService: APP });
      expect((await validate(second.id, APP)).proxies).to.deep.equal([SECOND_CALLBACK, CALLBACK]);
    });
  });

  describe('the login session ends', () => {
    it('by logout: its PGTs and PTs are gone with it', async () => {
      const { core, tickets, grant, validate, pgtFor } = setUp();
      const { tgt, pgtId } = await pgtFor();
      const pt = await grant.execute({ pgt: pgtId, targetService: BACKEND });
      await core.destroyTicketGrantingTicket.execute(tgt.id);
      expect(await tickets.get(pgtId)).to.equal(undefined);
      expect(await failureCode(grant.execute({ pgt: pgtId, targetService: BACKEND }))).to.equal('INVALID_TICKET');
      expect(await failureCode(validate(pt.id, BACKEND))).to.equal('INVALID_TICKET');
    });

    it('by idle expiry: the PGT grants nothing more, though its own record would live to the hard limit', async () => {
      const { clock, grant, pgtFor } = setUp();
      const { pgtId } = await pgtFor();
      clock.advanceSeconds(defaultTicketLifetimes.tgtTimeToKillSeconds);
      expect(await failureCode(grant.execute({ pgt: pgtId, targetService: BACKEND }))).to.equal('INVALID_TICKET');
    });

    it('a PT whose PGT was removed does not validate', async () => {
      const { tickets, grant, validate, pgtFor } = setUp();
      const { pgtId } = await pgtFor();
      const pt = await grant.execute({ pgt: pgtId, targetService: BACKEND });
      await tickets.remove(pgtId);
      expect(await failureCode(validate(pt.id, BACKEND))).to.equal('INVALID_TICKET');
    });
  });
});
