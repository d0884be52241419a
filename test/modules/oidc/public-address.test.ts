import { request } from 'node:http';
import { expect } from 'chai';
import * as client from 'openid-client';
import { Browser, headingOf, type Visit } from '../../support/browser.js';
import type { Tessera } from '../../support/tessera.js';
import { CLIENT_ID, CLIENT_SECRET, freePort, OAUTH_APP, REDIRECT_URI, RP_SERVICE, startOidc } from './support.js';

const PUBLIC_URL = 'https://sso.example.org';
const PUBLIC_BASE = `${PUBLIC_URL}/cas`;
const ISSUER = `${PUBLIC_BASE}/oidc`;

/** What a client or a proxy it fools may send: another host, another scheme, a forged client address first. */
const HOSTILE = { host: 'evil.example', 'x-forwarded-host': 'evil.example:8443', 'x-forwarded-proto': 'http', 'x-forwarded-for': '203.0.113.7, 198.51.100.2' };

const authorizeQuery = (extra: Record<string, string> = {}) =>
  new URLSearchParams(Object.entries({
    client_id: CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: 'openid email',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    nonce: 'n-0S6_WzA2Mj',
    ...extra,
  }).filter(([, value]) => value !== '')).toString();

/** Every string in a JSON document that is a URL. */
function urlsIn(value: unknown): string[] {
  if (typeof value === 'string') return /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(urlsIn);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(urlsIn);
  return [];
}

/** A GET whose request line names an absolute URL of another host (`GET http://evil.example/... HTTP/1.1`). */
function absoluteFormGet(port: number, target: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, path: target, headers: { host: 'evil.example' } }, (incoming) => {
      let body = '';
      incoming.on('data', (chunk: Buffer) => (body += chunk.toString()));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

// docs/modules/oidc.md (One public address): every URL the provider publishes or redirects to is built
// from server.publicUrl, whatever Host, X-Forwarded-Host or X-Forwarded-Proto say, with or without trustProxy.
for (const trustProxy of [false, true]) {
  describe(`oidc: one public address (trustProxy ${trustProxy})`, () => {
    let tessera: Tessera;
    let port: number;
    before(async () => {
      port = await freePort();
      tessera = await startOidc({ server: { host: '127.0.0.1', port, nodeName: 'e2e', publicUrl: PUBLIC_URL, trustProxy }, services: [RP_SERVICE, OAUTH_APP] });
    });
    after(() => tessera.close());

    /** Every answer on the way, each redirect into tessera's public URL followed at the server's real address. */
    async function walk(browser: Browser, first: Visit): Promise<Visit[]> {
      const visits = [first];
      let current = first;
      while (current.location !== null && current.status >= 300 && current.status < 400 && current.location.startsWith(PUBLIC_BASE) && visits.length < 10) {
        current = await browser.get(`${tessera.url}${current.location.slice(PUBLIC_BASE.length)}`);
        visits.push(current);
      }
      if (headingOf(current.body) === 'Log in') return [...visits, ...(await walk(browser, await browser.submit(current, { username: 'casuser', password: 'Mellon' })))];
      return visits;
    }

    it('discovery: the issuer and every endpoint, jwks_uri and end_session_endpoint under the public URL', async () => {
      for (const headers of [{}, HOSTILE]) {
        const answer = await new Browser(headers).get(`${tessera.url}/oidc/.well-known/openid-configuration`);
        expect(answer.status).to.equal(200);
        const document = JSON.parse(answer.body) as Record<string, unknown>;
        expect(document['issuer']).to.equal(ISSUER);
        expect(document).to.include({ jwks_uri: `${ISSUER}/jwks`, end_session_endpoint: `${ISSUER}/session/end`, authorization_endpoint: `${ISSUER}/auth` });
        const urls = urlsIn(document);
        expect(urls.length).to.be.greaterThan(5);
        for (const url of urls) expect(url, JSON.stringify(headers)).to.satisfy((value: string) => value === ISSUER || value.startsWith(`${ISSUER}/`));
      }
    });

    it('a request line naming another host (absolute form) gets the same discovery', async () => {
      const answer = await absoluteFormGet(port, 'http://evil.example/cas/oidc/.well-known/openid-configuration');
      expect(answer.status).to.equal(200);
      for (const url of urlsIn(JSON.parse(answer.body))) expect(url).to.satisfy((value: string) => value.startsWith(`${ISSUER}`));
    });

    it('authorization through /login: the interaction, login, callback and resume redirects all go to the public URL, the code names the issuer', async () => {
      for (const path of ['/oidc/auth', '/oauth2.0/authorize']) {
        const browser = new Browser(HOSTILE, 'https');
        const query = path === '/oidc/auth' ? authorizeQuery() : authorizeQuery({ client_id: OAUTH_APP.clientId, redirect_uri: 'https://app.example.org/oauth/callback', scope: '', nonce: '' });
        const visits = await walk(browser, await browser.get(`${tessera.url}${path}?${query}`));
        const locations = visits.map((visit) => visit.location).filter((location) => location !== null);
        expect(locations.length, path).to.be.greaterThan(4);
        const last = new URL(locations.at(-1)!);
        expect(last.searchParams.get('code'), path).to.be.a('string');
        expect(last.searchParams.get('iss'), path).to.equal(ISSUER);
        for (const location of locations.slice(0, -1)) expect(location, path).to.satisfy((value: string) => value.startsWith(`${PUBLIC_BASE}/`));
        expect(locations[0], path).to.match(new RegExp(`^${ISSUER}/interaction/[A-Za-z0-9_-]+$`));
        expect(locations.some((location) => location.startsWith(`${PUBLIC_BASE}/login?service=${encodeURIComponent(`${ISSUER}/interaction/`)}`)), path).to.equal(true);
        expect(locations.some((location) => new RegExp(`^${ISSUER}/auth/[A-Za-z0-9_-]+$`).test(location)), path).to.equal(true);
      }
    });

    it('RP-initiated logout: its form posts to the public URL, and the logout ends there', async () => {
      const browser = new Browser(HOSTILE, 'https');
      const verifier = client.randomPKCECodeVerifier();
      const visits = await walk(browser, await browser.get(`${tessera.url}/oidc/auth?${authorizeQuery({ code_challenge: await client.calculatePKCECodeChallenge(verifier) })}`));
      const code = new URL(visits.at(-1)!.location!).searchParams.get('code')!;
      const tokens = await fetch(`${tessera.url}/oidc/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}` },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier }).toString(),
      });
      const { id_token: idToken } = (await tokens.json()) as { id_token: string };

      const page = await browser.get(`${tessera.url}/oidc/session/end?${new URLSearchParams({ id_token_hint: idToken }).toString()}`);
      expect(page.status).to.equal(200);
      const action = /<form id="op.logoutForm" method="post" action="([^"]+)"/.exec(page.body)?.[1];
      expect(action).to.equal(`${ISSUER}/session/end/confirm`);
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.body)![1]!;
      const done = await browser.post(`${tessera.url}/oidc/session/end/confirm`, { xsrf, logout: 'yes' });
      expect(done.status).to.equal(303);
      expect(done.location).to.match(new RegExp(`^${ISSUER}/session/end/success`));
    });

    it(`the audit trail names the client address by tessera's rule: ${trustProxy ? 'the last X-Forwarded-For entry' : 'the TCP peer'}`, async () => {
      const earlier = tessera.audit.length;
      const browser = new Browser(HOSTILE, 'https');
      const verifier = client.randomPKCECodeVerifier();
      const visits = await walk(browser, await browser.get(`${tessera.url}/oidc/auth?${authorizeQuery({ state: 'audited', code_challenge: await client.calculatePKCECodeChallenge(verifier) })}`));
      await new Browser(HOSTILE, 'https').get(`${tessera.url}/oidc/auth?${authorizeQuery({ prompt: 'none' })}`);
      // The token endpoint is answered by the provider on the listener, not through tessera's app: the same rule holds there.
      const code = new URL(visits.at(-1)!.location!).searchParams.get('code')!;
      const tokens = await fetch(`${tessera.url}/oidc/token`, {
        method: 'POST',
        headers: { ...HOSTILE, 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}` },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier }).toString(),
      });
      expect(tokens.status).to.equal(200);
      // ... and timed for the metrics under the provider's own route.
      const metrics = await (await fetch(new URL('/metrics', tessera.url))).text();
      expect(metrics).to.match(/tessera_http_request_duration_seconds_count\{[^}]*route="\/cas\/oidc\/token"[^}]*status="200"[^}]*\} [1-9]/);
      const lines = tessera.audit.slice(earlier).map((line) => JSON.parse(line) as Record<string, unknown>);
      const address = trustProxy ? '198.51.100.2' : '127.0.0.1';
      for (const action of ['oidc.authorized', 'oidc.refused', 'oidc.token.issued']) {
        const found = lines.filter((line) => line['action'] === action);
        expect(found.length, action).to.be.greaterThan(0);
        for (const line of found) expect(line['address'], action).to.equal(address);
      }
    });
  });
}
