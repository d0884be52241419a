import { mkdtempSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import * as client from 'openid-client';
import { describeWithRedis } from '@tessera/testkit/redis';
import { Browser, headingOf, ticketOf } from '../../support/browser.js';
import { APP, type Tessera } from '../../support/tessera.js';
import { CLIENT_ID, CLIENT_SECRET, follow, freePort, REDIRECT_URI, RP_SERVICE, startOidc } from './support.js';

const OTHER_REDIRECT = 'https://other.example.org/callback';
const OTHER_CLIENT = { ...RP_SERVICE, id: 12, name: 'Other relying party', serviceId: '^https://other\\.example\\.org/callback$', clientId: 'other' };

interface Tokens {
  readonly access_token: string;
  readonly refresh_token?: string;
  readonly id_token: string;
}

/**
 * The browser gets tokens for `clientId` at `node` (logging in with the form if it is shown): code +
 * PKCE, redeemed at `redeemAt`. No offline_access: the grant ends with the client's logout.
 */
async function tokensFor(browser: Browser, node: Tessera, redeemAt: Tessera, clientId: string, redirectUri: string, publicBase: string): Promise<Tokens> {
  const verifier = client.randomPKCECodeVerifier();
  const query = new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri, response_type: 'code', scope: 'openid email', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
  let visit = await follow(browser, await browser.get(`${node.url}/oidc/auth?${query.toString()}`), node.url, publicBase);
  if (headingOf(visit.body) === 'Log in') visit = await follow(browser, await browser.submit(visit, { username: 'casuser', password: 'Mellon' }), node.url, publicBase);
  const code = new URL(visit.location!).searchParams.get('code');
  expect(code, visit.body).to.be.a('string');
  const answer = await fetch(`${redeemAt.url}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${clientId}:${CLIENT_SECRET}`).toString('base64')}` },
    body: new URLSearchParams({ grant_type: 'authorization_code', code: code!, redirect_uri: redirectUri, code_verifier: verifier }).toString(),
  });
  expect(answer.status).to.equal(200);
  return (await answer.json()) as Tokens;
}

const userinfo = (node: Tessera, tokens: Tokens) => fetch(`${node.url}/oidc/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });

/**
 * RP-initiated logout of `CLIENT_ID` at `node`, answered "Stay logged in" at `confirmAt`: the logout
 * page's form posted without `logout`, as its second button does. The redirect it ends with.
 */
async function stayLoggedIn(browser: Browser, node: Tessera, confirmAt: Tessera, idToken: string): Promise<string | null> {
  const page = await browser.get(`${node.url}/oidc/session/end?${new URLSearchParams({ id_token_hint: idToken, post_logout_redirect_uri: REDIRECT_URI, state: 'kept' }).toString()}`);
  expect(page.status, page.body).to.equal(200);
  expect(page.body).to.include('Stay logged in');
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.body)![1]!;
  const done = await browser.post(`${confirmAt.url}/oidc/session/end/confirm`, { xsrf });
  expect(done.status).to.equal(303);
  return done.location;
}

/** What "Stay logged in" keeps and what it ends, with the browser's requests spread over `a` and `b` (one node twice, or two nodes whose public URL is a's). */
function staysLoggedIn(nodes: () => { a: Tessera; b: Tessera }): void {
  it('keeps the CAS session (single sign-on to a CAS service) and the other client; ends the tokens and session of the client that asked', async () => {
    const { a, b } = nodes();
    const browser = new Browser();
    const rp = await tokensFor(browser, a, b, CLIENT_ID, REDIRECT_URI, a.url);
    const other = await tokensFor(browser, b, a, OTHER_CLIENT.clientId, OTHER_REDIRECT, a.url);
    expect((await userinfo(a, rp)).status).to.equal(200);

    expect(await stayLoggedIn(browser, a, b, rp.id_token)).to.equal(`${REDIRECT_URI}?state=kept`);

    // The CAS session: /login for a CAS service answers with a ticket, no form.
    const sso = await browser.get(`${b.url}/login?service=${encodeURIComponent(APP)}`);
    expect(sso.status, sso.body).to.equal(302);
    expect(ticketOf(sso.location)).to.match(/^ST-/);
    // The client that logged out: its access token refused at either node.
    expect((await userinfo(a, rp)).status).to.equal(401);
    expect((await userinfo(b, rp)).status).to.equal(401);
    // The other client keeps its tokens.
    expect((await userinfo(b, other)).status).to.equal(200);
    // And the client may come back without a login form: the session is still there.
    const again = await tokensFor(browser, b, a, CLIENT_ID, REDIRECT_URI, a.url);
    expect((await userinfo(a, again)).status).to.equal(200);
  });

  it('"Log out" ends the CAS session: the form again, every client\'s tokens refused', async () => {
    const { a, b } = nodes();
    const browser = new Browser();
    const rp = await tokensFor(browser, a, b, CLIENT_ID, REDIRECT_URI, a.url);
    const other = await tokensFor(browser, b, a, OTHER_CLIENT.clientId, OTHER_REDIRECT, a.url);
    const page = await browser.get(`${a.url}/oidc/session/end?${new URLSearchParams({ id_token_hint: rp.id_token, post_logout_redirect_uri: REDIRECT_URI }).toString()}`);
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.body)![1]!;
    const done = await browser.post(`${b.url}/oidc/session/end/confirm`, { xsrf, logout: 'yes' });
    expect(done.location).to.equal(REDIRECT_URI);
    const login = await browser.get(`${a.url}/login?service=${encodeURIComponent(APP)}`);
    expect(headingOf(login.body)).to.equal('Log in');
    expect((await userinfo(b, rp)).status).to.equal(401);
    expect((await userinfo(a, other)).status).to.equal(401);
  });
}

// docs/modules/oidc.md: the RP-initiated logout page's "Stay logged in" keeps the CAS session; only the
// client that asked is signed out (its grant revoked, its tokens refused).
describe('oidc: "Stay logged in" on the logout page', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startOidc({ services: [RP_SERVICE, OTHER_CLIENT, ...baseServices()] });
  });
  after(() => tessera.close());
  staysLoggedIn(() => ({ a: tessera, b: tessera }));
});

describeWithRedis('oidc: "Stay logged in" across two nodes on one Redis', (redis) => {
  let a: Tessera;
  let b: Tessera;
  before(async function () {
    this.timeout(60_000);
    const folder = mkdtempSync(join(tmpdir(), 'tessera-oidc-stay-'));
    const [portA, portB] = [await freePort(), await freePort()];
    const shared = {
      storage: { type: 'redis', redis: { url: redis().url, keyPrefix: `stay${randomBytes(4).toString('hex')}:` } },
      login: { keyFile: join(folder, 'login-key.json') },
      oidc: { keyFile: join(folder, 'oidc-keys.json') },
      services: [RP_SERVICE, OTHER_CLIENT, ...baseServices()],
    };
    // One public URL for both, as behind a load balancer: a's. The test's browser reaches each at its own port.
    a = await startOidc({ ...shared, server: { host: '127.0.0.1', port: portA, nodeName: 'node-a', publicUrl: `http://127.0.0.1:${portA}` } });
    b = await startOidc({ ...shared, server: { host: '127.0.0.1', port: portB, nodeName: 'node-b', publicUrl: `http://127.0.0.1:${portA}` } });
  });
  after(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });
  staysLoggedIn(() => ({ a, b }));
});

/** The CAS services of the end-to-end configuration (APP among them). */
function baseServices(): unknown[] {
  return [{ '@class': 'org.apereo.cas.services.CasRegisteredService', id: 1, name: 'App', serviceId: '^https://app\\.example\\.org/.*' }];
}
