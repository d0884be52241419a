import { expect } from 'chai';
import * as client from 'openid-client';
import { Browser, headingOf } from '../support/browser.js';
import type { Tessera } from '../support/tessera.js';
import { CLIENT_SECRET, follow, OAUTH_APP, RP_SERVICE, startOidc } from './support.js';

/** An OIDC client whose serviceId ends in neither `.*` nor `$`: it still names this one URL, matched whole. */
const PINNED = { ...RP_SERVICE, id: 13, name: 'Pinned', clientId: 'pinned', serviceId: '^https://pinned\\.example\\.org/callback' };
const EXACT = 'https://pinned.example.org/callback';
/** URLs a careless check would let through: longer ones a prefix match takes, and others. */
/** A client of every host under example.org, as Apereo patterns write it: no `/` before the domain. */
const HOSTS = { ...RP_SERVICE, id: 14, name: 'Hosts', clientId: 'hosts', serviceId: '^https://[^/]+\\.example\\.org/callback$' };
/** URLs the pattern matches as written, whose host, once a browser reads them, is another's. */
const ELSEWHERE = ['https://evil.example.net\\.example.org/callback', 'https://evil.example.net\\@a.example.org/callback', 'HTTPS://evil.example.net\\.example.org/callback'];
const REFUSED = ['https://pinned.example.org/callback/more', 'https://pinned.example.org/callbackx', 'https://pinned.example.org/callback.evil.example/', 'https://evil.example.org/callback', `${EXACT}#fragment`];

// docs/modules/oidc.md: an OIDC or OAuth client's serviceId is the pattern every redirect URI and every
// post-logout redirect URI must match as a whole; anything else is an error page and no redirect (an
// RP-initiated logout is no open redirect).
describe('oidc: redirect and post-logout redirect URIs match the client\'s serviceId as a whole', () => {
  let tessera: Tessera;
  let config: client.Configuration;
  let idToken: string;
  const browser = new Browser();
  before(async () => {
    tessera = await startOidc({ services: [PINNED, HOSTS, OAUTH_APP] });
    config = await client.discovery(new URL(`${tessera.url}/oidc`), PINNED.clientId, CLIENT_SECRET, client.ClientSecretBasic(CLIENT_SECRET), { execute: [client.allowInsecureRequests] });
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: EXACT, scope: 'openid', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
    let visit = await follow(browser, await browser.get(url.href), tessera.url);
    if (headingOf(visit.body) === 'Log in') visit = await follow(browser, await browser.submit(visit, { username: 'casuser', password: 'Mellon' }), tessera.url);
    expect(visit.location).to.match(new RegExp(`^${EXACT}\\?code=`));
    idToken = (await client.authorizationCodeGrant(config, new URL(visit.location!), { pkceCodeVerifier: verifier })).id_token!;
  });
  after(() => tessera.close());

  const authorize = (clientId: string, redirectUri: string, path = '/oidc/auth') =>
    browser.get(`${tessera.url}${path}?${new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri, response_type: 'code', scope: 'openid', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' }).toString()}`);

  it('authorization: a code at the URL itself; an error page and no redirect for any other', async () => {
    expect((await follow(browser, await authorize(PINNED.clientId, EXACT), tessera.url)).location).to.match(new RegExp(`^${EXACT}\\?code=`));
    for (const redirectUri of REFUSED) {
      const answer = await authorize(PINNED.clientId, redirectUri);
      expect(answer.status, redirectUri).to.equal(400);
      expect(answer.location, redirectUri).to.equal(null);
      expect(answer.body, redirectUri).to.include('redirect_uri');
    }
  });

  it('a URL the pattern matches only as written, not as the browser reads it (a backslash is a slash): an error page and no redirect', async () => {
    expect((await follow(browser, await authorize(HOSTS.clientId, 'https://a.example.org/callback'), tessera.url)).location).to.match(/^https:\/\/a\.example\.org\/callback\?code=/);
    for (const redirectUri of ELSEWHERE) {
      const answer = await authorize(HOSTS.clientId, redirectUri);
      expect(answer.status, redirectUri).to.equal(400);
      expect(answer.location, redirectUri).to.equal(null);
      const page = await logoutTo(redirectUri, { client_id: HOSTS.clientId });
      expect(page.status, redirectUri).to.equal(400);
      expect(page.body, redirectUri).to.not.include('op.logoutForm');
    }
  });

  it('an OAuth client at /oauth2.0/authorize: an error page and no redirect outside its pattern', async () => {
    for (const redirectUri of ['https://app.example.org/elsewhere', 'https://evil.example.org/oauth/x', 'https://app.example.org.evil.example/oauth/x']) {
      const answer = await authorize(OAUTH_APP.clientId, redirectUri, '/oauth2.0/authorize');
      expect(answer.status, redirectUri).to.equal(400);
      expect(answer.location, redirectUri).to.equal(null);
    }
  });

  /** The logout page asks; its form, confirmed, is where the browser goes. */
  async function logoutTo(postLogoutRedirectUri: string, hint: Record<string, string>) {
    const page = await browser.get(`${tessera.url}/oidc/session/end?${new URLSearchParams({ ...hint, post_logout_redirect_uri: postLogoutRedirectUri }).toString()}`);
    return page;
  }

  it('RP-initiated logout: a post-logout redirect URI outside the pattern is an error page, by id_token_hint or client_id, and never where the logout goes', async () => {
    for (const hint of [{ id_token_hint: idToken }, { client_id: PINNED.clientId }]) {
      for (const redirectUri of REFUSED) {
        const page = await logoutTo(redirectUri, hint);
        expect(page.status, `${redirectUri} ${Object.keys(hint)[0]}`).to.equal(400);
        expect(page.location).to.equal(null);
        expect(page.body).to.include('post_logout_redirect_uri');
        expect(page.body).to.not.include('op.logoutForm');
      }
    }
  });

  it('RP-initiated logout: the client\'s own URL is where the browser goes after staying logged in', async () => {
    const page = await logoutTo(EXACT, { id_token_hint: idToken });
    expect(page.status).to.equal(200);
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.body)![1]!;
    const done = await browser.post(`${tessera.url}/oidc/session/end/confirm`, { xsrf });
    expect(done.location).to.equal(EXACT);
  });
});
