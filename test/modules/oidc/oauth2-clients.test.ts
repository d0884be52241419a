import { expect } from 'chai';
import * as client from 'openid-client';
import { Browser, headingOf } from '../../support/browser.js';
import type { Tessera } from '../../support/tessera.js';
import { authorizeThroughLoginForm, follow, OAUTH_APP, OAUTH_SECRET as SECRET, startOidc } from './support.js';

const APP_REDIRECT = 'https://app.example.org/oauth/callback';
const RENEW_REDIRECT = 'https://renew.example.org/cb';

/** The same in CAS 4's package, its refresh tokens renewed, its profile FLAT, its user name the email. */
const OAUTH_RENEW = {
  '@class': 'org.jasig.cas.support.oauth.services.OAuthRegisteredService',
  id: 21,
  name: 'Renewing OAuth app',
  serviceId: '^https://renew\\.example\\.org/cb$',
  clientId: 'oauth-renew',
  clientSecret: SECRET,
  bypassApprovalPrompt: true,
  generateRefreshToken: true,
  renewRefreshToken: true,
  userProfileViewType: 'FLAT',
  usernameAttributeProvider: { '@class': 'org.apereo.cas.services.PrincipalAttributeRegisteredServiceUsernameProvider', usernameAttribute: 'email' },
  attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllowedAttributeReleasePolicy', allowedAttributes: ['java.util.ArrayList', ['memberOf']] },
};

const ASKING_REDIRECT = 'https://asking.example.org/cb';
/** As the corpus's files mostly are: the user is asked. */
const OAUTH_ASKING = { ...OAUTH_APP, id: 22, name: 'OAuth asking', serviceId: '^https://asking\\.example\\.org/cb$', clientId: 'oauth-asking', bypassApprovalPrompt: false };

// docs/modules/oidc.md (OAuth 2.0 clients): Apereo's OAuthRegisteredService on the provider, at Apereo's
// /oauth2.0 endpoints, on the session of /login; openid-client as a plain OAuth 2.0 client.
describe('oidc: OAuth 2.0 clients (OAuthRegisteredService) at /oauth2.0', () => {
  let tessera: Tessera;
  let base: string;
  before(async () => {
    tessera = await startOidc({ services: [OAUTH_APP, OAUTH_RENEW, OAUTH_ASKING] });
    base = `${tessera.url}/oauth2.0`;
  });
  after(() => tessera.close());

  /** openid-client as a plain OAuth 2.0 client of Apereo's endpoints (no discovery: Apereo's OAuth has none). */
  function configFor(clientId: string): client.Configuration {
    const metadata = {
      issuer: `${tessera.url}/oidc`,
      authorization_endpoint: `${base}/authorize`,
      token_endpoint: `${base}/accessToken`,
      introspection_endpoint: `${base}/introspect`,
      revocation_endpoint: `${base}/revoke`,
    };
    const config = new client.Configuration(metadata, clientId, SECRET, client.ClientSecretPost(SECRET));
    client.allowInsecureRequests(config);
    return config;
  }

  const profile = (accessToken: string) => fetch(`${base}/profile`, { headers: { authorization: `Bearer ${accessToken}` } });
  const form = (path: string, fields: Record<string, string>) =>
    fetch(`${base}/${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

  it("code + PKCE through the /login form: an access token and no ID token (openid is left out), and Apereo's profile of it", async () => {
    const config = configFor('oauth-app');
    const { callback, verifier } = await authorizeThroughLoginForm(config, tessera.url, APP_REDIRECT, 'openid profile');
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
    expect(tokens.access_token).to.be.a('string');
    expect(tokens).to.not.have.property('id_token');
    expect(tokens.scope?.split(' ') ?? []).to.not.include('openid');

    const answer = await profile(tokens.access_token);
    expect(answer.status).to.equal(200);
    expect(answer.headers.get('cache-control')).to.equal('no-store');
    expect(await answer.json()).to.deep.equal({
      id: 'casuser',
      client_id: 'oauth-app',
      service: APP_REDIRECT,
      attributes: { email: ['casuser@example.org'], name: ['CAS User'] },
    });
    // No openid scope, so no userinfo.
    const userinfo = await fetch(`${tessera.url}/oidc/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect([userinfo.status, await userinfo.json()]).to.deep.equal([403, { error: 'insufficient_scope', error_description: 'access token missing openid scope', scope: 'openid' }]);
  });

  it('as older Apereo clients do: no PKCE, the secret in the form of /oauth2.0/accessToken, the token a parameter of the profile (GET and POST); FLAT', async () => {
    const browser = new Browser();
    const authorize = `${base}/authorize?${new URLSearchParams({ response_type: 'code', client_id: 'oauth-renew', redirect_uri: RENEW_REDIRECT, state: 'xyz' }).toString()}`;
    let visit = await follow(browser, await browser.get(authorize), tessera.url);
    expect(headingOf(visit.body)).to.equal('Log in');
    visit = await follow(browser, await browser.submit(visit, { username: 'casuser', password: 'Mellon' }), tessera.url);
    const callback = new URL(visit.location!);
    expect(callback.origin + callback.pathname).to.equal(RENEW_REDIRECT);
    expect(callback.searchParams.get('state')).to.equal('xyz');

    const answer = await form('accessToken', { grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: RENEW_REDIRECT, client_id: 'oauth-renew', client_secret: SECRET });
    expect(answer.status, await answer.clone().text()).to.equal(200);
    const tokens = (await answer.json()) as { access_token: string; refresh_token?: string; token_type: string };
    expect(tokens.token_type).to.equal('Bearer');
    expect(tokens.refresh_token).to.be.a('string');

    const flat = { memberOf: ['staff'], id: 'casuser@example.org', client_id: 'oauth-renew', service: RENEW_REDIRECT };
    const viaQuery = await fetch(`${base}/profile?${new URLSearchParams({ access_token: tokens.access_token }).toString()}`);
    expect(await viaQuery.json()).to.deep.equal(flat);
    expect(await (await form('profile', { access_token: tokens.access_token })).json()).to.deep.equal(flat);
  });

  it('without bypassApprovalPrompt (as most Apereo files have it), the user is asked once: allow gives the code, deny access_denied', async () => {
    const browser = new Browser();
    const authorize = (state: string) => `${base}/authorize?${new URLSearchParams({ response_type: 'code', client_id: 'oauth-asking', redirect_uri: ASKING_REDIRECT, state }).toString()}`;
    let visit = await follow(browser, await browser.get(authorize('one')), tessera.url);
    visit = await follow(browser, await browser.submit(visit, { username: 'casuser', password: 'Mellon' }), tessera.url);
    expect(headingOf(visit.body)).to.equal('Allow access');
    expect(visit.body).to.include('OAuth asking').and.not.include('oauth2');
    visit = await follow(browser, await browser.submit(visit, { decision: 'allow' }), tessera.url);
    expect(new URL(visit.location!).searchParams.get('code')).to.be.a('string');
    // Asked once: the next authorization of the session goes straight back with a code.
    const again = await follow(browser, await browser.get(authorize('two')), tessera.url);
    expect(new URL(again.location!).searchParams.get('code')).to.be.a('string');

    const other = new Browser();
    let denied = await follow(other, await other.get(authorize('three')), tessera.url);
    denied = await follow(other, await other.submit(denied, { username: 'alice', password: 'secret' }), tessera.url);
    denied = await follow(other, await other.submit(denied, { decision: 'deny' }), tessera.url);
    const location = new URL(denied.location!);
    expect([location.origin + location.pathname, location.searchParams.get('error'), location.searchParams.get('state')]).to.deep.equal([ASKING_REDIRECT, 'access_denied', 'three']);
  });

  it('refresh: the same refresh token serves again without renewRefreshToken; with it, a new one each time and the used one refused', async () => {
    const kept = configFor('oauth-app');
    const first = await authorizeThroughLoginForm(kept, tessera.url, APP_REDIRECT, '');
    const keptTokens = await client.authorizationCodeGrant(kept, first.callback, { pkceCodeVerifier: first.verifier });
    const once = await client.refreshTokenGrant(kept, keptTokens.refresh_token!);
    const twice = await client.refreshTokenGrant(kept, keptTokens.refresh_token!);
    expect([once.refresh_token, twice.refresh_token]).to.deep.equal([keptTokens.refresh_token, keptTokens.refresh_token]);
    expect(twice.access_token).to.not.equal(once.access_token);
    // The access token of a refresh has the profile of the authorization.
    expect(await (await profile(twice.access_token)).json()).to.deep.include({ id: 'casuser', service: APP_REDIRECT });

    const renewing = configFor('oauth-renew');
    const second = await authorizeThroughLoginForm(renewing, tessera.url, RENEW_REDIRECT, '');
    const renewTokens = await client.authorizationCodeGrant(renewing, second.callback, { pkceCodeVerifier: second.verifier });
    const renewed = await client.refreshTokenGrant(renewing, renewTokens.refresh_token!);
    expect(renewed.refresh_token).to.be.a('string').and.not.equal(renewTokens.refresh_token);
    const reused = await client.refreshTokenGrant(renewing, renewTokens.refresh_token!).then(
      () => 'accepted',
      (error: unknown) => (error as { error?: string }).error,
    );
    expect(reused).to.equal('invalid_grant');
  });

  it('introspect and revoke at /oauth2.0: a revoked access token has no profile any more', async () => {
    const config = configFor('oauth-app');
    const { callback, verifier } = await authorizeThroughLoginForm(config, tessera.url, APP_REDIRECT, '');
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
    expect(await client.tokenIntrospection(config, tokens.access_token)).to.deep.include({ active: true, client_id: 'oauth-app', sub: 'casuser' });
    await client.tokenRevocation(config, tokens.access_token);
    expect(await client.tokenIntrospection(config, tokens.access_token)).to.deep.include({ active: false });
    const answer = await profile(tokens.access_token);
    expect(answer.status).to.equal(401);
    expect(await answer.json()).to.deep.equal({ error: 'expired_accessToken' });
  });

  it("a logout of the login session ends its access tokens' profile", async () => {
    const browser = new Browser();
    const config = configFor('oauth-app');
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: APP_REDIRECT, code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
    let visit = await follow(browser, await browser.get(url.href), tessera.url);
    visit = await follow(browser, await browser.submit(visit, { username: 'casuser', password: 'Mellon' }), tessera.url);
    const tokens = await client.authorizationCodeGrant(config, new URL(visit.location!), { pkceCodeVerifier: verifier });
    expect((await profile(tokens.access_token)).status).to.equal(200);
    await browser.get(`${tessera.url}/logout`);
    const answer = await profile(tokens.access_token);
    expect([answer.status, await answer.json()]).to.deep.equal([401, { error: 'expired_accessToken' }]);
  });

  it('the profile endpoint is in the OpenAPI document (GET and POST); the endpoints that are the provider\'s are not', async () => {
    const document = (await (await fetch(`${tessera.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(document.paths['/oauth2.0/profile']).to.have.all.keys('get', 'post');
    expect(document.paths).to.not.have.any.keys('/oauth2.0/authorize', '/oauth2.0/accessToken');
  });

  describe('bad input', () => {
    it('the profile without a token, or with one that is no token: 401 with Apereo\'s errors', async () => {
      const missing = await fetch(`${base}/profile`);
      expect([missing.status, await missing.json()]).to.deep.equal([401, { error: 'missing_accessToken' }]);
      const unknown = await profile('no-such-token');
      expect([unknown.status, await unknown.json()]).to.deep.equal([401, { error: 'expired_accessToken' }]);
    });

    it('an unknown client, or a redirect URI outside the pattern: an error page, no redirect', async () => {
      for (const [clientId, redirectUri] of [
        ['nobody', APP_REDIRECT],
        ['oauth-app', 'https://evil.example.org/oauth/callback'],
      ] as const) {
        const answer = await fetch(`${base}/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: redirectUri }).toString()}`, { redirect: 'manual' });
        expect(answer.status, clientId).to.equal(400);
        expect(answer.headers.get('location'), clientId).to.equal(null);
        expect(answer.headers.get('content-type'), clientId).to.match(/^text\/html/);
      }
    });

    it('a wrong secret at /oauth2.0/accessToken: invalid_client', async () => {
      const answer = await form('accessToken', { grant_type: 'authorization_code', code: 'whatever', redirect_uri: APP_REDIRECT, client_id: 'oauth-app', client_secret: 'not-the-secret-at-all' });
      expect(answer.status).to.equal(401);
      expect(await answer.json()).to.deep.include({ error: 'invalid_client' });
    });

    it('an OAuth client asking the OpenID Connect endpoint for openid is refused (invalid_scope), back at its redirect URI', async () => {
      const answer = await fetch(`${tessera.url}/oidc/auth?${new URLSearchParams({ response_type: 'code', client_id: 'oauth-app', redirect_uri: APP_REDIRECT, scope: 'openid', state: 's' }).toString()}`, { redirect: 'manual' });
      expect(answer.status).to.equal(303);
      const location = new URL(answer.headers.get('location')!);
      expect(location.origin + location.pathname).to.equal(APP_REDIRECT);
      expect(location.searchParams.get('error')).to.equal('invalid_scope');
    });
  });
});
