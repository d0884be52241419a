import { mkdtempSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { describeWithRedis } from '@tessera/testkit/redis';
import { Browser, headingOf } from '../support/browser.js';
import type { Tessera } from '../support/tessera.js';
import { CLIENT_ID, follow, freePort, OAUTH_APP, REDIRECT_URI, RP_SERVICE, startOidc } from './support.js';

const authorizeQuery = (state: string) =>
  new URLSearchParams({
    client_id: CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: 'openid',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    state,
  }).toString();

/** A browser without a session asks for a code: where it is sent (its interaction) and the browser, to go on. */
async function startAuthorization(node: Tessera, state: string, headers: Record<string, string> = {}): Promise<{ browser: Browser; location: string | null; status: number }> {
  const browser = new Browser(headers);
  const answer = await browser.get(`${node.url}/oidc/auth?${authorizeQuery(state)}`);
  return { browser, location: answer.location, status: answer.status };
}

/** Goes on from the interaction through the login form; the last answer. */
async function finish(node: Tessera, started: { browser: Browser; location: string | null }, publicBase = node.url) {
  let visit = await follow(started.browser, await started.browser.get(`${node.url}${started.location!.slice(publicBase.length)}`), node.url, publicBase);
  if (headingOf(visit.body) === 'Log in') visit = await follow(started.browser, await started.browser.submit(visit, { username: 'casuser', password: 'Mellon' }), node.url, publicBase);
  return visit;
}

// docs/modules/oidc.md (Bounded interactions): what an unauthenticated authorization request keeps is
// bounded per client address (oidc.interactionsPerAddress, the earliest dropped), and the throttle's
// request-rate limit sees authorization requests (throttle.authorization).
describe('oidc: bounded interactions', () => {
  describe('an IPv6 client counts by its /64 network (server.trustProxy)', () => {
    let tessera: Tessera;
    before(async () => {
      const port = await freePort();
      tessera = await startOidc({ server: { host: '127.0.0.1', port, nodeName: 'e2e', publicUrl: `http://127.0.0.1:${port}`, trustProxy: true }, oidc: { interactionsPerAddress: 3 } });
    });
    after(() => tessera.close());

    it("four addresses of one /64 share its limit: the earliest is dropped; another /64's pending one stays", async () => {
      const from = (address: string) => ({ 'x-forwarded-for': address });
      const first = await startAuthorization(tessera, 'first', from('2001:db8:1:2::a'));
      const elsewhere = await startAuthorization(tessera, 'elsewhere', from('2001:db8:1:3::a'));
      for (const [index, address] of ['2001:db8:1:2::b', '2001:db8:1:2:0:0:0:c', '2001:0db8:0001:0002:ffff::d'].entries()) {
        await startAuthorization(tessera, `later-${index}`, from(address));
      }
      const dropped = await finish(tessera, first);
      expect(dropped.status, 'the /64 held four, one past its limit').to.equal(400);
      expect(dropped.body).to.include('invalid_request');
      const kept = await finish(tessera, elsewhere);
      expect(kept.location, kept.body).to.match(new RegExp(`^${REDIRECT_URI}\\?code=.+&state=elsewhere`));
    });
  });

  describe('per client address', () => {
    let tessera: Tessera;
    before(async () => {
      tessera = await startOidc({ oidc: { interactionsPerAddress: 3 } });
    });
    after(() => tessera.close());

    it('past the limit, the address\'s earliest pending authorization is dropped (an error page, no code); the latest ones still log in', async () => {
      const first = await startAuthorization(tessera, 'first');
      const later = [];
      for (const state of ['second', 'third', 'fourth']) later.push(await startAuthorization(tessera, state));
      const dropped = await finish(tessera, first);
      expect(dropped.status).to.equal(400);
      expect(dropped.location).to.equal(null);
      expect(dropped.body).to.include('invalid_request');
      for (const [index, started] of later.entries()) {
        const done = await finish(tessera, started);
        expect(done.location, done.body).to.match(new RegExp(`^${REDIRECT_URI}\\?code=.+&state=${['second', 'third', 'fourth'][index]}`));
      }
    });

    it('an authorization whose login came back no longer counts: three finished after a pending one leave it in place', async () => {
      const pending = await startAuthorization(tessera, 'pending');
      for (const state of ['x', 'y', 'z']) expect((await finish(tessera, await startAuthorization(tessera, state))).location).to.match(/code=/);
      await startAuthorization(tessera, 'later');
      expect((await finish(tessera, pending)).location).to.match(/code=.+&state=pending/);
    });
  });

  describe('the throttle\'s request-rate limit', () => {
    let tessera: Tessera;
    before(async () => {
      tessera = await startOidc({
        modules: ['rest', 'login', 'throttle', 'oidc'],
        server: { host: '127.0.0.1', port: await freePort(), nodeName: 'e2e', trustProxy: true, publicUrl: 'http://127.0.0.1' },
        services: [RP_SERVICE, OAUTH_APP],
        throttle: { authorization: { requestsPerSecond: 0.01, burst: 3 } },
      });
    });
    after(() => tessera.close());

    it('an address past throttle.authorization gets 429 with Retry-After and an error page, at /oidc/auth and /oauth2.0/authorize alike; another address does not', async () => {
      const address = { 'x-forwarded-for': '198.51.100.91' };
      for (const state of ['1', '2', '3']) expect((await startAuthorization(tessera, state, address)).status).to.equal(303);
      const refused = await new Browser(address).get(`${tessera.url}/oidc/auth?${authorizeQuery('4')}`);
      // The provider routes its endpoint by any case and with a trailing slash: the limit sees them all.
      for (const path of ['/oidc/auth/', '/oidc/AUTH']) expect((await new Browser(address).get(`${tessera.url}${path}?${authorizeQuery('4')}`)).status, path).to.equal(429);
      expect(refused.status).to.equal(429);
      expect(Number(refused.headers.get('retry-after'))).to.be.greaterThan(0);
      expect(refused.headers.get('content-type')).to.match(/^text\/html/);
      expect(refused.body).to.include('temporarily_unavailable');
      expect(refused.setCookies).to.deep.equal([]);
      const oauth = await new Browser(address).get(`${tessera.url}/oauth2.0/authorize?${new URLSearchParams({ client_id: OAUTH_APP.clientId, redirect_uri: 'https://app.example.org/oauth/callback', response_type: 'code' }).toString()}`);
      expect(oauth.status).to.equal(429);
      expect((await startAuthorization(tessera, '5', { 'x-forwarded-for': '198.51.100.92' })).status).to.equal(303);
    });
  });
});

describeWithRedis('oidc: bounded interactions across two nodes on one Redis', (redis) => {
  let a: Tessera;
  let b: Tessera;
  let prefix: string;
  before(async function () {
    this.timeout(60_000);
    const folder = mkdtempSync(join(tmpdir(), 'tessera-oidc-bounded-'));
    const [portA, portB] = [await freePort(), await freePort()];
    prefix = `bounded${randomBytes(4).toString('hex')}:`;
    const shared = {
      storage: { type: 'redis', redis: { url: redis().url, keyPrefix: prefix } },
      login: { keyFile: join(folder, 'login-key.json') },
      oidc: { keyFile: join(folder, 'oidc-keys.json'), interactionsPerAddress: 5 },
    };
    a = await startOidc({ ...shared, server: { host: '127.0.0.1', port: portA, nodeName: 'node-a', publicUrl: `http://127.0.0.1:${portA}` } });
    b = await startOidc({ ...shared, server: { host: '127.0.0.1', port: portB, nodeName: 'node-b', publicUrl: `http://127.0.0.1:${portA}` } });
  });
  after(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  const stored = (namespace: string) => redis().cli('--scan', '--pattern', `${prefix}rec:${namespace}:*`).split('\n').filter((line) => line.trim() !== '').length;

  it('requests from one address spread over both nodes keep the limit between them, the latest; a finished one frees its place', async () => {
    const started = [];
    for (let request = 0; request < 20; request++) started.push(await startAuthorization(request % 2 === 0 ? a : b, `s${request}`));
    expect(stored('oidc.interaction')).to.equal(5);
    expect(stored('oidc.interaction-address')).to.equal(5);
    // The latest, started at b, logs in at b, its redirects to the public URL (a's) followed at b.
    const done = await finish(b, started.at(-1)!, a.url);
    expect(done.location, done.body).to.match(/code=.+&state=s19/);
    expect(stored('oidc.interaction')).to.equal(4);
    expect(stored('oidc.interaction-address')).to.equal(4);
    expect((await finish(a, started[0]!)).status).to.equal(400);
  });
});
