import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpsCallbackListener } from '@tessera/testkit/modules/proxy';
import { scrape, valueOf } from '../../support/prometheus.js';
import { APP, form, login, startTessera } from '../../support/tessera.js';
import { BACKEND, delivered, freshTicket, PORTAL, proxyingService, proxyTicket, startProxyWorld, validate, type ProxyWorld } from './support.js';

// docs/protocol.md §13: proxy tickets over real HTTP, callbacks over real HTTPS.
describe('proxy tickets: pgtUrl callbacks over HTTPS, GET /proxy, proxy chains (docs/protocol.md §13)', function () {
  this.timeout(30_000);
  let world: ProxyWorld;
  let base = '';
  const portalCallback = () => world.listener.url('/pgtCallback');
  const backendCallback = () => world.listener.url('/backendCallback');
  const auditOf = (action: string) => world.tessera.audit.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['action'] === action);

  before(async () => {
    world = await startProxyWorld();
    base = world.tessera.url;
  });
  after(() => world.close());
  beforeEach(() => {
    world.listener.answer = { status: 200 };
  });

  /** The portal validates a fresh ST with its pgtUrl: the answer, and the PGT its callback received. */
  const portalPgt = async (path = '/p3/serviceValidate', pgtUrl = portalCallback()) => {
    const { tgt, st } = await freshTicket(base, PORTAL);
    const before = world.listener.received.length;
    const answer = await validate(base, path, PORTAL, st, pgtUrl);
    const pgt = world.listener.received.length > before ? delivered(world.listener, new URL(pgtUrl).pathname) : undefined;
    return { tgt, answer, pgt };
  };

  it('the portal gets a PGT at its HTTPS callback and its IOU in the answer; a PT of it validates at the back end with the portal as proxy', async () => {
    const { answer, pgt } = await portalPgt();
    expect(answer.user).to.equal('casuser');
    expect(pgt?.pgtId).to.match(/^PGT-\d+-[A-Za-z0-9-]+-e2e$/);
    expect(answer.proxyGrantingTicket).to.equal(pgt!.pgtIou).and.match(/^PGTIOU-\d+-[A-Za-z0-9-]+-e2e$/);
    expect(answer).to.not.have.property('proxies');

    const pt = await proxyTicket(base, pgt!.pgtId, BACKEND);
    expect(pt.status).to.equal(200);
    expect(pt.ticket).to.match(/^PT-\d+-[A-Za-z0-9-]+-e2e$/);
    expect(await validate(base, '/proxyValidate', BACKEND, pt.ticket!)).to.deep.include({ user: 'casuser', proxies: [portalCallback()] });
    expect((await validate(base, '/proxyValidate', BACKEND, pt.ticket!)).code).to.equal('INVALID_TICKET');
  });

  it('every CAS 2 and 3 path takes pgtUrl; only the proxy paths validate a PT, /serviceValidate and /p3/serviceValidate refuse it', async () => {
    for (const path of ['/serviceValidate', '/proxyValidate', '/p3/serviceValidate', '/p3/proxyValidate']) {
      const { answer, pgt } = await portalPgt(path);
      expect(answer.proxyGrantingTicket, path).to.equal(pgt?.pgtIou);
    }
    const { pgt } = await portalPgt();
    for (const path of ['/serviceValidate', '/p3/serviceValidate']) {
      const pt = await proxyTicket(base, pgt!.pgtId, BACKEND);
      expect((await validate(base, path, BACKEND, pt.ticket!)).code, path).to.equal('INVALID_TICKET');
    }
    const pt = await proxyTicket(base, pgt!.pgtId, BACKEND);
    expect((await validate(base, '/p3/proxyValidate', BACKEND, pt.ticket!)).proxies).to.deep.equal([portalCallback()]);
  });

  it('through two proxies: the back end validates its PT with its own pgtUrl, and a PT of that PGT lists both callbacks, most recent first', async () => {
    const { pgt } = await portalPgt();
    const first = await proxyTicket(base, pgt!.pgtId, BACKEND);
    const atBackend = await validate(base, '/proxyValidate', BACKEND, first.ticket!, backendCallback());
    const second = delivered(world.listener, '/backendCallback');
    expect(atBackend.proxyGrantingTicket).to.equal(second?.pgtIou);
    expect(atBackend.proxies).to.deep.equal([portalCallback()]);

    const pt = await proxyTicket(base, second!.pgtId, APP);
    expect(await validate(base, '/p3/proxyValidate', APP, pt.ticket!)).to.deep.include({ user: 'casuser', proxies: [backendCallback(), portalCallback()] });
  });

  it('a callback that fails, redirects or is too slow, or a pgtUrl that is not https, gets no PGT; the validation still succeeds', async () => {
    const failures: [string, () => Promise<string>][] = [
      ['HTTP 500', () => ((world.listener.answer = { status: 500 }), Promise.resolve(portalCallback()))],
      ['a redirect', () => ((world.listener.answer = { status: 302, location: portalCallback() }), Promise.resolve(portalCallback()))],
      ['too slow', () => ((world.listener.answer = { status: 200, delayMs: 3000 }), Promise.resolve(portalCallback()))],
    ];
    for (const [what, callbackUrl] of failures) {
      const { answer, pgt } = await portalPgt('/p3/serviceValidate', await callbackUrl());
      expect(answer.user, what).to.equal('casuser');
      expect(answer, what).to.not.have.property('proxyGrantingTicket');
      // The PGT the callback may have seen was never issued.
      expect((await proxyTicket(base, pgt!.pgtId, BACKEND)).code, what).to.equal('INVALID_TICKET');
    }

    const plain = await portalPgt('/p3/serviceValidate', portalCallback().replace('https:', 'http:'));
    expect(plain.answer.user).to.equal('casuser');
    expect(plain.answer).to.not.have.property('proxyGrantingTicket');

    const reasons = auditOf('proxy.callback.failed').map((line) => [line['reason'], line['status']]);
    expect(reasons).to.deep.include.members([
      ['status', 500],
      ['status', 302],
      ['timeout', undefined],
    ]);
    for (const line of auditOf('proxy.callback.failed')) {
      expect(line).to.include({ audit: 'ticket', outcome: 'failure', who: 'casuser', service: PORTAL });
      expect(line['ticket']).to.match(/^ST-\d+#[0-9a-f]{12}$/);
    }
    expect(auditOf('ticket.refused').some((line) => line['kind'] === 'PGT' && line['reason'] === 'CALLBACK_NOT_HTTPS')).to.equal(true);
  });

  it('a callback whose certificate comes from a CA tessera does not trust gets no PGT, and no request', async () => {
    const strangers = await HttpsCallbackListener.start(world.stranger);
    const world2 = await startProxyWorld({}, [proxyingService(30, 'Stranger', 'https://stranger.example.org/', strangers.url('/pgtCallback'))]);
    try {
      const { st } = await freshTicket(world2.tessera.url, 'https://stranger.example.org/app');
      const answer = await validate(world2.tessera.url, '/p3/serviceValidate', 'https://stranger.example.org/app', st, strangers.url('/pgtCallback'));
      expect(answer.user).to.equal('casuser');
      expect(answer).to.not.have.property('proxyGrantingTicket');
      expect(strangers.received).to.deep.equal([]);
      const failed = world2.tessera.audit.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line['action'] === 'proxy.callback.failed');
      expect(failed).to.include({ reason: 'certificate', proxy: strangers.url('/pgtCallback') });
    } finally {
      await world2.close();
      await strangers.close();
    }
  });

  it('a service without a proxy policy, or a pgtUrl its policy does not admit, gets no PGT and no callback is called', async () => {
    const before = world.listener.received.length;
    const { st } = await freshTicket(base, APP);
    const plain = await validate(base, '/p3/serviceValidate', APP, st, portalCallback());
    expect(plain.user).to.equal('casuser');
    expect(plain).to.not.have.property('proxyGrantingTicket');
    const other = await portalPgt('/p3/serviceValidate', world.listener.url('/elsewhere'));
    expect(other.answer).to.not.have.property('proxyGrantingTicket');
    expect(world.listener.received.length).to.equal(before);
    expect(auditOf('ticket.refused').filter((line) => line['kind'] === 'PGT' && line['reason'] === 'PROXY_NOT_ALLOWED').length).to.be.at.least(2);
  });

  it('logout kills the PGT and the PTs it issued that were not validated yet', async () => {
    const { tgt, pgt } = await portalPgt();
    const pt = await proxyTicket(base, pgt!.pgtId, BACKEND);
    expect((await fetch(`${base}/v1/tickets/${tgt}`, { method: 'DELETE' })).status).to.equal(200);
    expect((await proxyTicket(base, pgt!.pgtId, BACKEND)).code).to.equal('INVALID_TICKET');
    expect((await validate(base, '/proxyValidate', BACKEND, pt.ticket!)).code).to.equal('INVALID_TICKET');
    expect((await fetch(`${base}/v1/tickets/${pgt!.pgtId}`)).status).to.equal(404);
  });

  it('GET /proxy refuses with the protocol codes: INVALID_REQUEST, INVALID_TICKET, UNAUTHORIZED_SERVICE', async () => {
    const { tgt, pgt } = await portalPgt();
    const missing = await fetch(`${base}/proxy?pgt=${pgt!.pgtId}`);
    expect(missing.status).to.equal(400);
    expect(await missing.text()).to.include('<cas:proxyFailure code="INVALID_REQUEST">');
    expect((await proxyTicket(base, 'PGT-1-Zq8xWv3kTm5-e2e', BACKEND)).code).to.equal('INVALID_TICKET');
    expect((await proxyTicket(base, tgt, BACKEND)).code).to.equal('INVALID_TICKET');
    for (const target of ['https://unknown.example.com/', 'https://nosso.example.org/x', 'https://disabled.example.org/x']) {
      expect((await proxyTicket(base, pgt!.pgtId, target)).code, target).to.equal('UNAUTHORIZED_SERVICE');
    }
    // alice may use the portal, but not the staff-only target.
    const aliceTgt = await login(base, 'alice', 'secret');
    const aliceSt = await (await fetch(`${base}/v1/tickets/${aliceTgt}`, form({ service: PORTAL }))).text();
    await validate(base, '/p3/serviceValidate', PORTAL, aliceSt, portalCallback());
    const alicePgt = delivered(world.listener, '/pgtCallback');
    expect((await proxyTicket(base, alicePgt!.pgtId, 'https://staff.example.org/x')).code).to.equal('UNAUTHORIZED_SERVICE');
    expect((await proxyTicket(base, alicePgt!.pgtId, BACKEND)).ticket).to.match(/^PT-/);
  });

  it('counts PGTs and PTs issued and callbacks failed, with bounded labels; the log and audit hold no whole PGT', async () => {
    const before = await scrape(world.tessera.server.adminUrl);
    const { pgt } = await portalPgt();
    await proxyTicket(base, pgt!.pgtId, BACKEND);
    world.listener.answer = { status: 503 };
    await portalPgt();
    const after = await scrape(world.tessera.server.adminUrl);
    const grew = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(grew('tessera_tickets_issued_total', { kind: 'PGT' })).to.equal(1);
    expect(grew('tessera_tickets_issued_total', { kind: 'PT' })).to.equal(1);
    expect(grew('tessera_proxy_callback_failures_total', { reason: 'status' })).to.equal(1);
    const lines = [...world.tessera.logs, ...world.tessera.audit].join('\n');
    expect(lines).to.not.include(pgt!.pgtId).and.not.include(pgt!.pgtIou);
    expect(auditOf('ticket.created').some((line) => line['kind'] === 'PGT' && line['proxy'] === portalCallback() && String(line['ticket']).startsWith('PGT-'))).to.equal(true);
  });

});

describe('proxy module off (docs/protocol.md §13)', () => {
  it('GET /proxy is 404 and pgtUrl is ignored: no callback is called', async () => {
    const world = await startProxyWorld();
    const off = await startTessera({ services: [proxyingService(20, 'Portal', PORTAL, world.listener.url('/pgtCallback'))] });
    try {
      expect((await fetch(`${off.url}/proxy?pgt=PGT-1-x-e2e&targetService=${encodeURIComponent(BACKEND)}`)).status).to.equal(404);
      const { st } = await freshTicket(off.url, PORTAL);
      const answer = await validate(off.url, '/p3/serviceValidate', PORTAL, st, world.listener.url('/pgtCallback'));
      expect(answer.user).to.equal('casuser');
      expect(answer).to.not.have.property('proxyGrantingTicket');
      expect(world.listener.received).to.deep.equal([]);
    } finally {
      await off.close();
      await world.close();
    }
  });
});

describe('single logout reaches the services proxy tickets were issued for (docs/protocol.md §13, §12.4)', function () {
  this.timeout(30_000);

  it('logging out sends the back end, opted in, a logoutRequest naming the PT it validated; a PT never validated gets none', async () => {
    const bodies: string[] = [];
    const backChannel = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        bodies.push(new URLSearchParams(body).get('logoutRequest') ?? '');
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => backChannel.listen(0, '127.0.0.1', resolve));
    const logoutUrl = `http://127.0.0.1:${(backChannel.address() as AddressInfo).port}/slo`;
    const keyFile = join(mkdtempSync(join(tmpdir(), 'tessera-proxy-slo-')), 'login-key.json');
    const optedInBackend = {
      '@class': 'org.apereo.cas.services.CasRegisteredService',
      id: 22,
      name: 'Back end, opted in',
      serviceId: '^https://slo-backend\\.example\\.org/.*',
      logoutType: 'BACK_CHANNEL',
      logoutUrl,
    };
    const world = await startProxyWorld({ modules: ['rest', 'login', 'proxy'], login: { keyFile } }, [optedInBackend]);
    try {
      const base = world.tessera.url;
      const { tgt, st } = await freshTicket(base, PORTAL);
      await validate(base, '/p3/serviceValidate', PORTAL, st, world.listener.url('/pgtCallback'));
      const pgt = delivered(world.listener, '/pgtCallback');
      const pt = await proxyTicket(base, pgt!.pgtId, 'https://slo-backend.example.org/api');
      expect(pt.ticket).to.match(/^PT-/);
      expect(await validate(base, '/proxyValidate', 'https://slo-backend.example.org/api', pt.ticket!)).to.have.property('user', 'casuser');
      const unused = await proxyTicket(base, pgt!.pgtId, 'https://slo-backend.example.org/other');
      expect((await fetch(`${base}/v1/tickets/${tgt}`, { method: 'DELETE' })).status).to.equal(200);
      const deadline = Date.now() + 5000;
      while (bodies.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      // Both would have been sent in the same moment: time enough for a second one to arrive.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(bodies).to.have.length(1);
      expect(bodies[0]).to.not.include(unused.ticket!);
      expect(bodies[0]).to.include(`<samlp:SessionIndex>${pt.ticket}</samlp:SessionIndex>`);
    } finally {
      await world.close();
      backChannel.closeAllConnections();
      await new Promise((resolve) => backChannel.close(resolve));
    }
  });
});
