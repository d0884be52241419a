import { createSign, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { Browser, formOf } from '../../support/browser.js';
import { APP, type Tessera } from '../../support/tessera.js';
import { MovableClock } from '../webauthn/support.js';
import { freePort, startDelegation } from './support.js';

const CLIENT = { id: 'tessera', secret: 'the client secret tessera has at the fake providers' };

/** What the fake providers answer next: the ID token's flaw, the profile's. */
type IdTokenFlaw = 'none' | 'signed-by-another-key' | 'alg-none' | 'expired' | 'another-nonce' | 'huge-answer';
type ProfileFlaw = 'none' | 'huge' | 'not-json' | 'never-answers';

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function signedJwt(header: Record<string, unknown>, claims: Record<string, unknown>, key: KeyObject | undefined): string {
  const input = `${base64url(header)}.${base64url(claims)}`;
  if (key === undefined) return `${input}.`;
  return `${input}.${createSign('RSA-SHA256').update(input).sign(key).toString('base64url')}`;
}

/**
 * One small upstream that is both an OpenID provider (discovery, keys, an authorization endpoint that
 * says yes at once, a token endpoint answering an ID token with the flaw asked for) and a plain OAuth
 * 2.0 provider (its profile answering with the flaw asked for): what a hostile or broken upstream sends.
 */
async function startFakeUpstream() {
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const another = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...key.publicKey.export({ format: 'jwk' }), kid: 'k1', use: 'sig', alg: 'RS256' };
  const nonces = new Map<string, string>();
  const flaws = { idToken: 'none' as IdTokenFlaw, profile: 'none' as ProfileFlaw, profileToken: '' };
  const hanging: ServerResponse[] = [];
  let issuer = '';
  const server: Server = createServer((request, response): void => {
    const url = new URL(request.url ?? '/', issuer);
    const json = (body: unknown): void => void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname === '/.well-known/openid-configuration') {
      return json({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
      });
    }
    if (url.pathname === '/jwks') return json({ keys: [jwk] });
    if (url.pathname === '/authorize') {
      const code = randomBytes(16).toString('base64url');
      nonces.set(code, url.searchParams.get('nonce') ?? '');
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      if (url.searchParams.has('nonce')) back.searchParams.set('iss', issuer);
      response.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === '/token') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const code = new URLSearchParams(body).get('code') ?? '';
        const now = Math.floor(Date.now() / 1000);
        const flaw = flaws.idToken;
        const claims = {
          iss: issuer,
          sub: 'mallory',
          aud: CLIENT.id,
          iat: flaw === 'expired' ? now - 7200 : now,
          exp: flaw === 'expired' ? now - 3600 : now + 300,
          nonce: flaw === 'another-nonce' ? 'not-the-nonce-tessera-sent' : nonces.get(code),
        };
        const idToken = signedJwt({ alg: flaw === 'alg-none' ? 'none' : 'RS256', kid: 'k1', typ: 'JWT' }, claims, flaw === 'alg-none' ? undefined : flaw === 'signed-by-another-key' ? another.privateKey : key.privateKey);
        // A huge answer: the tokens, and 5 MB of padding beside them.
        json({ access_token: randomBytes(16).toString('hex'), token_type: 'Bearer', expires_in: 300, id_token: idToken, ...(flaw === 'huge-answer' && { padding: 'x'.repeat(5 * 1_048_576) }) });
      });
      return;
    }
    if (url.pathname === '/user') {
      if (flaws.profile === 'never-answers') return void hanging.push(response);
      if (flaws.profile === 'not-json') return void response.writeHead(200, { 'content-type': 'text/plain' }).end(`${flaws.profileToken}&scope=user`);
      if (flaws.profile === 'huge') {
        // A profile of 5 MB, sent in chunks without a length: the user is named, the rest is padding.
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"id":"huge-user","padding":"');
        for (let chunk = 0; chunk < 80; chunk++) response.write('x'.repeat(65_536));
        return void response.end('"}');
      }
      return json({ id: 'octo', login: 'octo' });
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    flaws,
    close: () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// A hostile review of the delegation module: what an attacker or a broken upstream sends, at a running server.
describe('delegation: hostile input at the start and the callback', () => {
  let fake: Awaited<ReturnType<typeof startFakeUpstream>>;
  let tessera: Tessera;
  let base: string;
  let publicUrl: string;
  const clock = new MovableClock();
  before(async () => {
    fake = await startFakeUpstream();
    const port = await freePort();
    publicUrl = `http://localhost:${port}`;
    base = `${publicUrl}/cas`;
    tessera = await startDelegation(
      {
        server: { host: '127.0.0.1', port, nodeName: 'e2e', publicUrl, trustProxy: true },
        delegation: {
          waitingPerAddress: 3,
          providers: [
            { id: 'fake-oidc', type: 'oidc', title: 'Fake OIDC', oidc: { issuer: fake.issuer, clientId: CLIENT.id, clientSecret: CLIENT.secret } },
            {
              id: 'fake-oauth',
              type: 'oauth2',
              title: 'Fake OAuth',
              timeoutSeconds: 1,
              oauth2: { authorizationUrl: `${fake.issuer}/authorize`, tokenUrl: `${fake.issuer}/token`, profileUrl: `${fake.issuer}/user`, clientId: CLIENT.id, clientSecret: CLIENT.secret },
            },
          ],
        },
      },
      { clock },
    );
  });
  after(async () => {
    await tessera?.close();
    await fake?.close();
  });

  /** Presses the provider's button on APP's login page: the start route's answer. */
  async function leave(browser: Browser, provider: string) {
    const page = await browser.get(`${base}/login?service=${encodeURIComponent(APP)}`);
    return browser.post(`${base}/delegation/login`, { ...formOf(page.body).hidden, delegatedProvider: provider });
  }

  /** Leaves, lets the fake upstream answer at once, and comes back: the callback's answer. */
  async function roundTrip(browser: Browser, provider: string) {
    const left = await leave(browser, provider);
    expect(left.status, left.body).to.equal(302);
    const answered = await browser.get(left.location!);
    return browser.get(answered.location!);
  }

  it('the fake upstream as it should be: an ID token signed by its key logs the user in', async () => {
    fake.flaws.idToken = 'none';
    const browser = new Browser();
    const back = await roundTrip(browser, 'fake-oidc');
    expect(back.status, back.body).to.equal(200);
    const landing = await browser.submit(back);
    expect(landing.location).to.match(/^https:\/\/app\.example\.org\/home\?ticket=ST-/);
  });

  it('takes a proof only from the browser that left for the upstream: a proof id posted from another browser logs no one in', async () => {
    fake.flaws.idToken = 'none';
    const victim = new Browser();
    const back = await roundTrip(victim, 'fake-oidc');
    expect(back.status, back.body).to.equal(200);
    const proofId = formOf(back.body).hidden['delegatedLogin']!;
    // The attacker has the victim's proof id (a leaked page or log) and posts it with their own login form.
    const attacker = new Browser();
    const attackerForm = await attacker.get(`${base}/login?service=${encodeURIComponent(APP)}`);
    const stolen = await attacker.post(`${base}/login?service=${encodeURIComponent(APP)}`, { ...formOf(attackerForm.body).hidden, delegatedLogin: proofId });
    expect(stolen.status, stolen.body).to.not.equal(302);
    expect(stolen.location).to.equal(null);
    expect(await attacker.cookie(base, 'TGC')).to.equal(undefined);
    // The proof is used up by that post: the victim logs in again, and their own proof works.
    const again = await roundTrip(victim, 'fake-oidc');
    const landing = await victim.submit(again);
    expect(landing.location).to.match(/^https:\/\/app\.example\.org\/home\?ticket=ST-/);
  });

  for (const flaw of ['signed-by-another-key', 'alg-none', 'expired', 'another-nonce', 'huge-answer'] as const) {
    it(`refuses an ID token ${flaw.replaceAll('-', ' ')}: a page (401), no session`, async () => {
      fake.flaws.idToken = flaw;
      const browser = new Browser();
      const back = await roundTrip(browser, 'fake-oidc');
      fake.flaws.idToken = 'none';
      expect(back.status, back.body).to.equal(401);
      expect(back.body).to.include('could not be trusted');
      expect(back.body).to.not.include('delegatedLogin');
      expect(await browser.cookie(base, 'TGC')).to.equal(undefined);
      // The audit record says what was wrong, not openid-client's wrapper for what it did not expect.
      const failed = tessera.audit.map((line) => JSON.parse(line) as Record<string, unknown>).filter((record) => record['action'] === 'delegation.failed').at(-1);
      expect(failed?.['detail']).to.be.a('string').and.not.include('something went wrong');
    });
  }

  it('refuses a profile larger than 1 MB as it streams, a page (401), no session and no attribute of it kept', async () => {
    fake.flaws.profile = 'huge';
    const browser = new Browser();
    const back = await roundTrip(browser, 'fake-oauth');
    fake.flaws.profile = 'none';
    expect(back.status, back.body).to.equal(401);
    expect(back.body).to.include('could not be trusted');
    expect(await browser.cookie(base, 'TGC')).to.equal(undefined);
  });

  it('refuses a profile that is no JSON without quoting it in the log (its start may be a token)', async () => {
    fake.flaws.profile = 'not-json';
    fake.flaws.profileToken = `gho_${randomBytes(12).toString('hex')}`;
    const back = await roundTrip(new Browser(), 'fake-oauth');
    fake.flaws.profile = 'none';
    expect(back.status, back.body).to.equal(401);
    const lines = [...tessera.logs, ...tessera.audit];
    expect(lines.some((line) => line.includes('is no JSON'))).to.equal(true);
    expect(lines.filter((line) => line.includes(fake.flaws.profileToken.slice(0, 8)))).to.deep.equal([]);
  });

  it('answers a profile URL that never answers with a page (502) once the provider’s timeout passes', async () => {
    fake.flaws.profile = 'never-answers';
    const back = await roundTrip(new Browser(), 'fake-oauth');
    fake.flaws.profile = 'none';
    expect(back.status, back.body).to.equal(502);
    expect(back.body).to.include('could not be reached');
  });

  it('shows none of an error answer’s own words (error, error_description): the page says what happened in its own', async () => {
    const browser = new Browser();
    const left = await leave(browser, 'fake-oauth');
    const state = new URL(left.location!).searchParams.get('state')!;
    const script = '<script>alert(1)</script>';
    const answer = await browser.get(`${base}/delegation/callback/fake-oauth?state=${state}&error=${encodeURIComponent(script)}&error_description=${encodeURIComponent(`${script} call +1 555 0100`)}`);
    expect(answer.status).to.equal(401);
    expect(answer.body).to.not.include('<script>alert');
    expect(answer.body).to.not.include('555 0100');
    expect(answer.body).to.include(`href="/cas/login?service=${encodeURIComponent(APP)}"`);
  });

  it('names the callback from server.publicUrl to the upstream, whatever X-Forwarded-Host and -Proto say (trustProxy on)', async () => {
    const browser = new Browser({ 'x-forwarded-host': 'evil.example.net', 'x-forwarded-proto': 'https' });
    const left = await leave(browser, 'fake-oauth');
    expect(left.status, left.body).to.equal(302);
    expect(new URL(left.location!).searchParams.get('redirect_uri')).to.equal(`${base}/delegation/callback/fake-oauth`);
  });

  it('keeps at most delegation.waitingPerAddress logins waiting per client address: the earliest of a flood from one address is gone', async () => {
    const browser = new Browser({ 'x-forwarded-for': '203.0.113.9' });
    const states: string[] = [];
    for (let click = 0; click < 4; click++) {
      const left = await leave(browser, 'fake-oauth');
      expect(left.status, left.body).to.equal(302);
      states.push(new URL(left.location!).searchParams.get('state')!);
      clock.advanceSeconds(1);
    }
    // Back without a code: a kept login is found (then refused: no code); a dropped one is not.
    const dropped = await browser.get(`${base}/delegation/callback/fake-oauth?state=${states[0]}`);
    expect(dropped.status).to.equal(400);
    expect(dropped.body).to.include('This login has expired');
    const kept = await browser.get(`${base}/delegation/callback/fake-oauth?state=${states[3]}`);
    expect(kept.status).to.equal(401);
    // Another address keeps its own.
    const elsewhere = new Browser({ 'x-forwarded-for': '203.0.113.10' });
    const own = await leave(elsewhere, 'fake-oauth');
    const ownState = new URL(own.location!).searchParams.get('state')!;
    expect((await elsewhere.get(`${base}/delegation/callback/fake-oauth?state=${ownState}`)).status).to.equal(401);
  });

  it('sends the delegation cookie as __Host-TDELEGATION (Secure, HttpOnly, SameSite=Lax, Path=/, no Domain) when server.publicUrl is https, TLS ending at a proxy that says nothing (no trustProxy)', async () => {
    const port = await freePort();
    const behindProxy = await startDelegation({
      server: { host: '127.0.0.1', port, nodeName: 'e2e', publicUrl: 'https://sso.example.org' },
      delegation: { providers: [{ id: 'fake-oauth', type: 'oauth2', title: 'Fake OAuth', oauth2: { authorizationUrl: `${fake.issuer}/authorize`, tokenUrl: `${fake.issuer}/token`, profileUrl: `${fake.issuer}/user`, clientId: CLIENT.id, clientSecret: CLIENT.secret } }] },
    });
    try {
      const left = await fetch(`${behindProxy.url}/delegation/login`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ delegatedProvider: 'fake-oauth', formToken: 'any' }) });
      expect(left.status, await left.text()).to.equal(302);
      const cookie = left.headers.getSetCookie().find((line) => line.startsWith('__Host-TDELEGATION='));
      expect(cookie?.split('; ').slice(1).sort()).to.deep.equal(['httponly', 'path=/', 'samesite=lax', 'secure']);
    } finally {
      await behindProxy.close();
    }
  });

  it('over https (TLS ending at a proxy), the __Host- cookie carries the login through: the proof is taken from the browser that left, and from no other', async () => {
    const port = await freePort();
    const publicHttps = 'https://sso.example.org';
    const behindProxy = await startDelegation({
      server: { host: '127.0.0.1', port, nodeName: 'e2e', publicUrl: publicHttps },
      delegation: { providers: [{ id: 'fake-oauth', type: 'oauth2', title: 'Fake OAuth', oauth2: { authorizationUrl: `${fake.issuer}/authorize`, tokenUrl: `${fake.issuer}/token`, profileUrl: `${fake.issuer}/user`, clientId: CLIENT.id, clientSecret: CLIENT.secret } }] },
    });
    const local = (url: string) => url.replace(publicHttps, `http://127.0.0.1:${port}`);
    try {
      const loginPage = `${behindProxy.url}/login?service=${encodeURIComponent(APP)}`;
      const proofOf = async (browser: Browser) => {
        const left = await browser.post(`${behindProxy.url}/delegation/login`, { ...formOf((await browser.get(loginPage)).body).hidden, delegatedProvider: 'fake-oauth' });
        expect(left.status, left.body).to.equal(302);
        const answered = await fetch(left.location!, { redirect: 'manual' });
        return browser.get(local(answered.headers.get('location')!));
      };
      const victim = new Browser({}, 'https');
      const back = await proofOf(victim);
      expect(back.status, back.body).to.equal(200);
      const attacker = new Browser({}, 'https');
      const stolen = await attacker.post(`${behindProxy.url}/login?service=${encodeURIComponent(APP)}`, { ...formOf((await attacker.get(loginPage)).body).hidden, delegatedLogin: formOf(back.body).hidden['delegatedLogin']! });
      expect(stolen.location).to.equal(null);
      const landing = await victim.submit(await proofOf(victim));
      expect(landing.location).to.match(/^https:\/\/app\.example\.org\/home\?ticket=ST-/);
    } finally {
      await behindProxy.close();
    }
  });

  it('puts the start route under the login form’s rate per address (throttle.loginForm): 429 past the burst, nothing kept', async () => {
    const port = await freePort();
    const throttled = await startDelegation({
      server: { host: '127.0.0.1', port, nodeName: 'e2e', publicUrl: `http://localhost:${port}` },
      modules: ['rest', 'login', 'delegation', 'throttle'],
      throttle: { loginForm: { requestsPerSecond: 0.01, burst: 2 } },
      delegation: { providers: [{ id: 'fake-oauth', type: 'oauth2', title: 'Fake OAuth', oauth2: { authorizationUrl: `${fake.issuer}/authorize`, tokenUrl: `${fake.issuer}/token`, profileUrl: `${fake.issuer}/user`, clientId: CLIENT.id, clientSecret: CLIENT.secret } }] },
    });
    try {
      const post = () => fetch(`${throttled.url}/delegation/login`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ delegatedProvider: 'fake-oauth', formToken: 'any' }) });
      const statuses = [];
      for (let click = 0; click < 3; click++) statuses.push((await post()).status);
      expect(statuses).to.deep.equal([302, 302, 429]);
    } finally {
      await throttled.close();
    }
  });
});
