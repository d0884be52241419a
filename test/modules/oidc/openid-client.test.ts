import { expect } from 'chai';
import * as client from 'openid-client';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { Browser, headingOf } from '../../support/browser.js';
import type { Tessera } from '../../support/tessera.js';
import { CLIENT_ID, CLIENT_SECRET, follow, REDIRECT_URI, startOidc } from './support.js';

// docs/modules/oidc.md: a real relying party (openid-client) through discovery, code + PKCE, token,
// userinfo, refresh with rotation and RP-initiated logout, on the session of /login.
describe('oidc: openid-client against tessera as its OpenID Provider', () => {
  let tessera: Tessera;
  let config: client.Configuration;
  let issuer: string;
  before(async () => {
    tessera = await startOidc();
    issuer = `${tessera.url}/oidc`;
    config = await client.discovery(new URL(issuer), CLIENT_ID, CLIENT_SECRET, client.ClientSecretBasic(CLIENT_SECRET), { execute: [client.allowInsecureRequests] });
  });
  after(() => tessera.close());

  /** A browser logs in through tessera's /login form for the client; returns the redirect URI with its code. */
  async function authorize(browser: Browser, scope = 'openid profile email offline_access') {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    let visit = await follow(browser, await browser.get(url.href), tessera.url);
    if (visit.status === 200 && headingOf(visit.body) === 'Log in') {
      visit = await follow(browser, await browser.submit(visit, { username: 'casuser', password: 'Mellon' }), tessera.url);
    }
    expect(visit.location, visit.body).to.match(/^https:\/\/rp\.example\.org\/callback\?code=/);
    return { callback: new URL(visit.location!), verifier, state };
  }

  it('discovery names the issuer, the endpoints under /oidc and the JWKS', () => {
    const metadata = config.serverMetadata();
    expect(metadata.issuer).to.equal(issuer);
    expect(metadata.authorization_endpoint).to.equal(`${issuer}/auth`);
    expect(metadata.token_endpoint).to.equal(`${issuer}/token`);
    expect(metadata.jwks_uri).to.equal(`${issuer}/jwks`);
    expect(metadata.code_challenge_methods_supported).to.deep.equal(['S256']);
  });

  it('code + PKCE through the /login form: tokens, an ID token that verifies against the JWKS, userinfo with the released claims', async () => {
    const browser = new Browser();
    const { callback, verifier, state } = await authorize(browser);
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.claims()?.sub).to.equal('casuser');
    const { payload } = await jwtVerify(tokens.id_token!, createRemoteJWKSet(new URL(`${issuer}/jwks`)), { issuer, audience: CLIENT_ID });
    expect(payload.sub).to.equal('casuser');
    const userinfo = await client.fetchUserInfo(config, tokens.access_token, 'casuser');
    expect(userinfo).to.deep.include({ sub: 'casuser', email: 'casuser@example.org', name: 'CAS User' });
    expect(userinfo).to.not.have.property('memberOf');
    expect(tokens.refresh_token).to.be.a('string');

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).to.be.a('string').and.not.equal(tokens.refresh_token);
    const reused = await client.refreshTokenGrant(config, tokens.refresh_token!).then(
      () => 'accepted',
      (error: unknown) => (error as { error?: string }).error,
    );
    expect(reused).to.equal('invalid_grant');

    // The audit trail: the code, each token issue and the refusal, with the client and who; never a value.
    const actions = tessera.audit.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => String(line['action']).startsWith('oidc.'));
    expect(actions).to.deep.include.members([
      { ...actions.find((line) => line['action'] === 'oidc.authorized'), audit: 'ticket', outcome: 'success', who: 'casuser', client: CLIENT_ID },
      { ...actions.find((line) => line['grantType'] === 'authorization_code'), action: 'oidc.token.issued', who: 'casuser', client: CLIENT_ID },
      { ...actions.find((line) => line['grantType'] === 'refresh_token'), action: 'oidc.token.issued', client: CLIENT_ID },
      { ...actions.find((line) => line['action'] === 'oidc.refused'), outcome: 'failure', request: 'token', error: 'invalid_grant', client: CLIENT_ID },
    ]);
  });

  it('one session: a browser logged in to CAS gets its code without the form; prompt=none without a session is login_required', async () => {
    const browser = new Browser();
    const page = await browser.get(`${tessera.url}/login`);
    await browser.submit(page, { username: 'casuser', password: 'Mellon' });
    await authorize(browser);

    const stranger = new Browser();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT_URI, scope: 'openid', prompt: 'none', code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()), code_challenge_method: 'S256' });
    const answer = await follow(stranger, await stranger.get(url.href), tessera.url);
    expect(answer.location).to.match(/^https:\/\/rp\.example\.org\/callback\?error=login_required/);
  });

  it('RP-initiated logout ends the tessera session: /login shows the form again', async () => {
    const browser = new Browser();
    const { callback, verifier, state } = await authorize(browser);
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    const logout = client.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: REDIRECT_URI });
    const confirm = await follow(browser, await browser.get(logout.href), tessera.url);
    expect(confirm.status, confirm.body).to.equal(200);
    const done = await browser.post(new URL(/action="([^"]+)"/.exec(confirm.body)![1]!.replace(/&amp;/g, '&'), confirm.url).href, {
      xsrf: /name="xsrf" value="([^"]+)"/.exec(confirm.body)![1]!,
      logout: 'yes',
    });
    const end = await follow(browser, done, tessera.url);
    expect(end.location).to.equal(REDIRECT_URI);
    const login = await browser.get(`${tessera.url}/login`);
    expect(headingOf(login.body)).to.equal('Log in');
  });
});
