import { expect } from 'chai';
import { compactDecrypt, createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { fileURLToPath } from 'node:url';
import * as client from 'openid-client';
import { parse as parseYaml } from 'yaml';
import { examplesOf } from '../../docs/examples.js';
import { readPage } from '../../docs/markdown.js';
import type { Tessera } from '../../support/tessera.js';
import { Browser, headingOf } from '../../support/browser.js';
import { authorizeThroughLoginForm, follow, startOidc } from './support.js';

const OIDC = 'org.apereo.cas.services.OidcRegisteredService';
const CLAIMS = 'org.apereo.cas.oidc.claims';
const CHAIN = 'org.apereo.cas.services.ChainingAttributeReleasePolicy';
const SECRET = 'registrations-secret-of-at-least-16';
const insecure = { execute: [client.allowInsecureRequests] };

/** The user as a directory gives it: `mail`, `cn`, `sn`, `givenName`, none under a claim's name but `locale`. */
const CASUSER = {
  username: 'casuser',
  password: 'Mellon',
  attributes: { mail: ['casuser@example.org'], cn: ['CAS User'], sn: ['User'], givenName: ['CAS'], uid: ['casuser-uid'], locale: ['en'], memberOf: ['staff'], organization: ['Apereo'] },
};

/** A client as Apereo's browser tests write them (test/fixtures/apereo-services), on a redirect URI of its own. */
function registration(id: number, clientId: string, keys: Record<string, unknown>): Record<string, unknown> {
  return { '@class': OIDC, id, name: clientId, serviceId: `^https://${clientId}\\.example\\.org/callback$`, clientId, clientSecret: SECRET, bypassApprovalPrompt: true, ...keys };
}
const chain = (...policies: Record<string, unknown>[]) => ({ '@class': CHAIN, policies: ['java.util.ArrayList', policies] });
const scopes = (...names: string[]) => ['java.util.HashSet', names];

/** oidc-authzcode-claims-mapping: the profile scope's preferred_username from `uid`, its own mapping before the server's. */
const MAPPED = registration(31, 'mapped', {
  scopes: scopes('openid', 'email', 'profile'),
  attributeReleasePolicy: chain(
    { '@class': `${CLAIMS}.OidcProfileScopeAttributeReleasePolicy`, order: 1, claimMappings: { '@class': 'java.util.TreeMap', preferred_username: 'uid' } },
    { '@class': `${CLAIMS}.OidcEmailScopeAttributeReleasePolicy`, order: 1 },
  ),
});
/** oidc-authzcode-stanard-claim-filter: no scopes (scope-free); of profile only locale and name, of email only email. */
const FILTERED = registration(32, 'filtered', {
  attributeReleasePolicy: chain(
    { '@class': `${CLAIMS}.OidcProfileScopeAttributeReleasePolicy`, allowedAttributes: ['java.util.ArrayList', ['locale', 'name']] },
    { '@class': `${CLAIMS}.OidcEmailScopeAttributeReleasePolicy`, allowedAttributes: ['java.util.ArrayList', ['email']] },
  ),
});
/** oidc-clientcredentials: a scope of the server's own (eduPerson), whose claims the client's custom scope policy names. */
const CUSTOM = registration(33, 'custom', {
  scopes: scopes('openid', 'profile', 'eduPerson'),
  attributeReleasePolicy: chain({ '@class': `${CLAIMS}.OidcCustomScopeAttributeReleasePolicy`, order: 1, scopeName: 'eduPerson', allowedAttributes: ['java.util.ArrayList', ['organization']] }),
});
/** A client listing scopes with a policy that releases by none: as in Apereo, only its scopes' claims. */
const SCOPED_ALL = registration(34, 'scoped', { scopes: scopes('openid', 'email'), attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllAttributeReleasePolicy' } });
/** oidc-authn-claims-freeform: scopes only openid, so scope-free: what its policy releases is a claim whatever the scopes asked. */
const FREEFORM = registration(35, 'freeform', {
  scopes: scopes('openid'),
  attributeReleasePolicy: chain(
    { '@class': 'org.apereo.cas.services.ReturnAllowedAttributeReleasePolicy', allowedAttributes: ['java.util.ArrayList', ['memberOf']], order: 0 },
    { '@class': 'org.apereo.cas.services.ReturnMappedAttributeReleasePolicy', order: 1, allowedAttributes: { '@class': 'java.util.TreeMap', cn: 'common_name' } },
  ),
});

/** The claims of the ID token and of userinfo a code flow for the client and `scope` gets, `sub` aside and the ID token's own claims left out. */
async function claimsThroughOpenidClient(tessera: Tessera, clientId: string, secret: string, redirectUri: string, scope: string): Promise<{ idToken: Record<string, unknown>; userinfo: Record<string, unknown> }> {
  const config = await client.discovery(new URL(`${tessera.url}/oidc`), clientId, secret, client.ClientSecretBasic(secret), insecure);
  const { callback, verifier } = await authorizeThroughLoginForm(config, tessera.url, redirectUri, scope);
  const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
  const { sub, iss: _iss, aud: _aud, exp: _exp, iat: _iat, auth_time: _authTime, at_hash: _atHash, nonce: _nonce, sid: _sid, amr: _amr, acr: _acr, ...idToken } = (tokens.claims() ?? {}) as Record<string, unknown>;
  expect(sub).to.equal('casuser');
  const { sub: subject, ...userinfo } = await client.fetchUserInfo(config, tokens.access_token, 'casuser');
  expect(subject).to.equal('casuser');
  return { idToken, userinfo };
}

/** A client with a secret as short as Apereo's own examples' (`secret`): loaded with a warning, and it works. */
const SHORT = registration(36, 'short', { clientSecret: 'k9Xq2z', scopes: scopes('openid', 'email') });

// docs/modules/oidc.md (Claims): Apereo's OIDC registrations, as its own tests write them, loaded and
// used through openid-client: what each releases in the ID token and at userinfo.
describe("oidc: Apereo's OIDC registrations behave as in Apereo CAS, through openid-client", () => {
  let tessera: Tessera;

  before(async () => {
    tessera = await startOidc({
      users: [CASUSER],
      services: [MAPPED, FILTERED, CUSTOM, SCOPED_ALL, FREEFORM, SHORT],
      oidc: { claimsMap: { email: 'mail', name: 'cn', family_name: 'sn', given_name: 'givenName' }, scopes: { eduPerson: ['eduPersonAffiliation'] } },
    });
  });
  after(() => tessera.close());

  const claimsOf = (clientId: string, scope: string) => claimsThroughOpenidClient(tessera, clientId, SECRET, `https://${clientId}.example.org/callback`, scope);

  it("scope policies with claimMappings and the server's claims map: each claim of the scopes granted, from the attribute mapped to it, in the ID token and at userinfo", async () => {
    const profileAndEmail = { preferred_username: 'casuser-uid', name: 'CAS User', family_name: 'User', given_name: 'CAS', locale: 'en', email: 'casuser@example.org' };
    expect(await claimsOf('mapped', 'openid profile email')).to.deep.equal({ idToken: profileAndEmail, userinfo: profileAndEmail });
    // The email scope alone: only its claim; none of the directory's own names (mail, cn, uid) ever.
    expect(await claimsOf('mapped', 'openid email')).to.deep.equal({ idToken: { email: 'casuser@example.org' }, userinfo: { email: 'casuser@example.org' } });
  });

  it("allowedAttributes of a standard scope's policy releases only those of its claims", async () => {
    const filtered = { locale: 'en', name: 'CAS User', email: 'casuser@example.org' };
    expect(await claimsOf('filtered', 'openid profile email')).to.deep.equal({ idToken: filtered, userinfo: filtered });
    expect(await claimsOf('filtered', 'openid')).to.deep.equal({ idToken: {}, userinfo: {} });
  });

  it("a scope of the server's own: the client's custom scope policy says its claims, released only when the scope is granted; profile's standard claims beside it", async () => {
    const granted = { organization: 'Apereo', name: 'CAS User', family_name: 'User', given_name: 'CAS', locale: 'en' };
    expect(await claimsOf('custom', 'openid profile eduPerson')).to.deep.equal({ idToken: granted, userinfo: granted });
    expect(await claimsOf('custom', 'openid profile')).to.deep.equal({ idToken: { name: 'CAS User', family_name: 'User', given_name: 'CAS', locale: 'en' }, userinfo: { name: 'CAS User', family_name: 'User', given_name: 'CAS', locale: 'en' } });
  });

  it('a client listing scopes gets their claims only: a policy that releases by no scope releases nothing there, as in Apereo', async () => {
    expect(await claimsOf('scoped', 'openid email')).to.deep.equal({ idToken: { email: 'casuser@example.org' }, userinfo: { email: 'casuser@example.org' } });
  });

  it('a client secret shorter than 16 characters authenticates the client as any other: tokens for it, invalid_client for a wrong one', async () => {
    const tokens = await claimsThroughOpenidClient(tessera, 'short', 'k9Xq2z', 'https://short.example.org/callback', 'openid');
    expect(tokens).to.deep.equal({ idToken: {}, userinfo: {} });
    const answer = await fetch(`${tessera.url}/oidc/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('short:k9Xq2y').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'Zq81kLm0nPxW', redirect_uri: 'https://short.example.org/callback' }),
    });
    expect(answer.status).to.equal(401);
    const refused = ((await answer.json()) as { error?: string }).error;
    expect(refused).to.equal('invalid_client');
  });

  it('a scope-free client (scopes only openid): what its policy releases is claimed whatever the scopes asked', async () => {
    const released = { memberOf: 'staff', common_name: 'CAS User' };
    expect(await claimsOf('freeform', 'openid')).to.deep.equal({ idToken: released, userinfo: released });
  });
});

// docs/modules/oidc.md (Claims): the page's claims map and client, run as written.
describe('oidc: the claims example of docs/modules/oidc.md', () => {
  let tessera: Tessera;
  let service: { clientId: string; clientSecret: string };

  before(async () => {
    const page = readPage(fileURLToPath(new URL('../../..', import.meta.url)), 'docs/modules/oidc.md');
    const section = page.text.slice(page.text.indexOf('\n### Claims\n'));
    const examples = examplesOf(page).examples.filter((example) => page.text.indexOf(example.code) > page.text.indexOf(section));
    const settings = examples.find((example) => example.kind === 'settings' && example.code.includes('claimsMap'));
    const definition = examples.find((example) => example.kind === 'service' && example.code.includes('claimMappings'));
    if (!settings || !definition) throw new Error('docs/modules/oidc.md: the Claims section has lost its examples');
    service = JSON.parse(definition.code) as typeof service;
    const { oidc } = parseYaml(settings.code) as { oidc: Record<string, unknown> };
    // The page's directory: mail, cn, sn, givenName and uid (no locale, so no locale claim).
    const { locale: _none, ...attributes } = CASUSER.attributes;
    tessera = await startOidc({ users: [{ ...CASUSER, attributes }], services: [service], oidc });
  });
  after(() => tessera?.close());

  it("the directory's mail, cn, sn and givenName are the standard claims, preferred_username the client's own mapping of uid; only the scopes' asked", async () => {
    const claims = (scope: string) => claimsThroughOpenidClient(tessera, service.clientId, service.clientSecret, 'https://intranet.example.org/oidc/callback', scope);
    const all = { email: 'casuser@example.org', name: 'CAS User', family_name: 'User', given_name: 'CAS', preferred_username: 'casuser-uid' };
    expect(await claims('openid profile email')).to.deep.equal({ idToken: all, userinfo: all });
    expect(await claims('openid email')).to.deep.equal({ idToken: { email: 'casuser@example.org' }, userinfo: { email: 'casuser@example.org' } });
  });
});

/** oidc-debugger-code-login and delegated-login-oidc-rp-cas-idp: a public client whose scopes leave out openid. */
const DEBUGGER = {
  '@class': OIDC,
  id: 41,
  name: 'debugger',
  serviceId: 'https://debugger.example.org/debug',
  clientId: 'debugger',
  scopes: ['java.util.HashSet', ['profile', 'email', 'address', 'phone']],
  supportedResponseTypes: ['java.util.HashSet', ['code']],
  bypassApprovalPrompt: true,
};

// docs/services.md (OAuth 2.0 and OpenID Connect clients): scopes without openid, as Apereo's own tests write them.
describe('oidc: an OIDC client whose scopes leave out openid, through openid-client', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startOidc({ users: [CASUSER], services: [DEBUGGER], oidc: { claimsMap: { email: 'mail' } } });
  });
  after(() => tessera?.close());

  async function tokensFor(scope: string) {
    const config = await client.discovery(new URL(`${tessera.url}/oidc`), 'debugger', undefined, client.None(), insecure);
    const { callback, verifier } = await authorizeThroughLoginForm(config, tessera.url, 'https://debugger.example.org/debug', scope);
    return { config, tokens: await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier }) };
  }

  it('asked with openid, as Apereo answers it: an ID token with the claims of its scopes', async () => {
    const { tokens } = await tokensFor('openid email');
    expect(tokens.claims()).to.deep.include({ sub: 'casuser', email: 'casuser@example.org' });
  });

  it('asked without openid: plain OAuth 2.0, an access token and no ID token; userinfo refuses it', async () => {
    const { tokens } = await tokensFor('email profile');
    expect(tokens.access_token).to.be.a('string');
    expect(tokens).to.not.have.property('id_token');
    expect(tokens.scope?.split(' ').sort()).to.deep.equal(['email', 'profile']);
    expect((await fetch(`${tessera.url}/oidc/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).to.be.within(400, 403);
  });
});

/** oidc-token-introspection: an OIDC client with only the client_credentials grant (its refresh tokens asked for, which a client's own token never has). */
const MACHINE = registration(51, 'machine', { scopes: scopes('openid'), generateRefreshToken: 'true', supportedGrantTypes: ['java.util.HashSet', ['client_credentials']] });
/** oauth2-login-clientcredentials: an OAuth client naming no grant type, so every one, client_credentials among them. */
const OAUTH_MACHINE = { ...registration(52, 'oauth-machine', {}), '@class': 'org.apereo.cas.support.oauth.services.OAuthRegisteredService' };

// docs/modules/oidc.md (Flows): the client_credentials grant, as Apereo's clients name it.
describe('oidc: the client_credentials grant, through openid-client', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startOidc({ users: [CASUSER], services: [MACHINE, OAUTH_MACHINE] });
  });
  after(() => tessera?.close());

  const configFor = (clientId: string) => client.discovery(new URL(`${tessera.url}/oidc`), clientId, SECRET, client.ClientSecretBasic(SECRET), insecure);

  it('a token for the client itself: no user, no ID token, no refresh token; introspection names the client and no subject; userinfo and the profile refuse it', async () => {
    const config = await configFor('machine');
    const tokens = await client.clientCredentialsGrant(config, { scope: 'openid' });
    expect(tokens.access_token).to.be.a('string');
    expect(tokens.token_type?.toLowerCase()).to.equal('bearer');
    expect(tokens).to.not.have.property('id_token');
    expect(tokens).to.not.have.property('refresh_token');
    const introspected = await client.tokenIntrospection(config, tokens.access_token);
    expect(introspected).to.deep.include({ active: true, client_id: 'machine' });
    expect(introspected).to.not.have.property('sub');
    expect((await fetch(`${tessera.url}/oidc/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).to.equal(401);
    expect((await fetch(`${tessera.url}/oauth2.0/profile`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).to.equal(401);
    // The audit trail has the grant, with the client and no user.
    const issued = tessera.audit.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line['action'] === 'oidc.token.issued' && line['grantType'] === 'client_credentials');
    expect(issued).to.deep.include({ client: 'machine' });
    expect(issued).to.not.have.property('who');
  });

  it('a client of client_credentials alone gets no code: the authorization request is refused', async () => {
    const url = new URL(`${tessera.url}/oidc/auth`);
    url.search = new URLSearchParams({ client_id: 'machine', response_type: 'code', scope: 'openid', redirect_uri: 'https://machine.example.org/callback' }).toString();
    const answer = await fetch(url, { redirect: 'manual' });
    const location = answer.headers.get('location') ?? '';
    // The library's answer to a response type the client may not use.
    expect(location).to.match(/^https:\/\/machine\.example\.org\/callback\?error=invalid_request&error_description=requested\+response_type\+is\+not\+allowed\+for\+this\+client/);
  });

  it("an OAuth client naming no grant type may ask a token for itself at Apereo's accessToken endpoint, a wrong secret refused", async () => {
    const form = (secret: string) => ({
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`oauth-machine:${secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    const answer = await fetch(`${tessera.url}/oauth2.0/accessToken`, form(SECRET));
    expect(answer.status).to.equal(200);
    const body = (await answer.json()) as Record<string, unknown>;
    expect(body['access_token']).to.be.a('string');
    expect(body).to.not.have.property('id_token');
    expect((await fetch(`${tessera.url}/oauth2.0/accessToken`, form('not-the-secret-of-it'))).status).to.equal(401);
  });
});

/** oidc-logout: an OIDC client whose access tokens are JWTs (the string "true", as Apereo's file writes it). */
const JWT_CLIENT = registration(61, 'jwt-at', { scopes: scopes('openid', 'email'), jwtAccessToken: 'true', generateRefreshToken: true });
/** oauth2-login-jwt-at: an OAuth client of JWT access tokens, naming no grant type. */
const JWT_OAUTH = { ...registration(62, 'jwt-oauth', { jwtAccessToken: true }), '@class': 'org.apereo.cas.support.oauth.services.OAuthRegisteredService' };

// docs/modules/oidc.md (Flows): Apereo's jwtAccessToken as RFC 9068 JWT access tokens signed with the provider's key.
describe('oidc: jwtAccessToken, RFC 9068 access tokens, through openid-client', () => {
  let tessera: Tessera;
  let jwks: ReturnType<typeof createRemoteJWKSet>;
  before(async () => {
    tessera = await startOidc({ users: [CASUSER], services: [JWT_CLIENT, JWT_OAUTH], oidc: { claimsMap: { email: 'mail' } } });
    jwks = createRemoteJWKSet(new URL(`${tessera.url}/oidc/jwks`));
  });
  after(() => tessera?.close());

  const configFor = (clientId: string) => client.discovery(new URL(`${tessera.url}/oidc`), clientId, SECRET, client.ClientSecretBasic(SECRET), insecure);

  it('the code flow: the access token is a JWT of type at+jwt the JWKS verifies, for the client (aud), naming the user, the client and the scopes; the refresh grant gives another', async () => {
    const config = await configFor('jwt-at');
    const { callback, verifier } = await authorizeThroughLoginForm(config, tessera.url, 'https://jwt-at.example.org/callback', 'openid email offline_access');
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, jwks, { issuer: `${tessera.url}/oidc`, audience: 'jwt-at', typ: 'at+jwt' });
    expect(protectedHeader.alg).to.equal('RS256');
    expect(payload).to.deep.include({ sub: 'casuser', client_id: 'jwt-at' });
    expect(String(payload['scope']).split(' ')).to.include.members(['openid', 'email']);
    expect(payload['exp']).to.be.a('number');
    // The ID token is as any client's: the claims of its scopes.
    expect(tokens.claims()).to.deep.include({ sub: 'casuser', email: 'casuser@example.org' });
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect((await jwtVerify(refreshed.access_token, jwks, { audience: 'jwt-at', typ: 'at+jwt' })).payload['sub']).to.equal('casuser');
  });

  it('client_credentials: a JWT for the client itself (sub its client id); another resource than its own is invalid_target', async () => {
    const config = await configFor('jwt-at');
    const tokens = await client.clientCredentialsGrant(config, { scope: 'openid' });
    const { payload } = await jwtVerify(tokens.access_token, jwks, { audience: 'jwt-at', typ: 'at+jwt' });
    expect(payload).to.deep.include({ sub: 'jwt-at', client_id: 'jwt-at' });
    const refused = await client.clientCredentialsGrant(config, { scope: 'openid', resource: 'https://api.example.org/' }).then(
      () => 'accepted',
      (error: unknown) => (error as { error?: string }).error,
    );
    expect(refused).to.equal('invalid_target');
  });

  it("an OAuth client's token at Apereo's accessToken endpoint is a JWT too", async () => {
    const answer = await fetch(`${tessera.url}/oauth2.0/accessToken`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`jwt-oauth:${SECRET}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    const { access_token: token } = (await answer.json()) as { access_token: string };
    expect((await jwtVerify(token, jwks, { audience: 'jwt-oauth', typ: 'at+jwt' })).payload['client_id']).to.equal('jwt-oauth');
  });
});

/** A public client as Apereo's response mode tests write them (no secret, PKCE), answered in `responseMode`. */
const answeredIn = (id: number, clientId: string, responseMode: string) => ({
  '@class': OIDC,
  id,
  name: clientId,
  serviceId: `^https://${clientId}\\.example\\.org/post$`,
  clientId,
  scopes: ['java.util.HashSet', ['profile', 'email', 'openid']],
  supportedResponseTypes: ['java.util.HashSet', ['code']],
  responseMode,
  bypassApprovalPrompt: true,
});

// docs/services.md (responseMode): Apereo's responseMode, the answer of an authorization that names none.
describe("oidc: Apereo's responseMode, as its response mode tests register it", () => {
  let tessera: Tessera;
  let jwks: ReturnType<typeof createRemoteJWKSet>;
  before(async () => {
    tessera = await startOidc({
      users: [CASUSER],
      services: [answeredIn(71, 'formpost', 'form_post'), answeredIn(72, 'fragment', 'fragment'), answeredIn(73, 'queryjwt', 'query.jwt'), answeredIn(74, 'formpostjwt', 'form_post.jwt')],
    });
    jwks = createRemoteJWKSet(new URL(`${tessera.url}/oidc/jwks`));
  });
  after(() => tessera?.close());

  /** The answer that leaves tessera for the client: a redirect, or a page posting to it. */
  async function answerTo(clientId: string, extra: Record<string, string> = {}): Promise<{ location: string | null; body: string; status: number }> {
    const browser = new Browser();
    const verifier = client.randomPKCECodeVerifier();
    const url = new URL(`${tessera.url}/oidc/auth`);
    url.search = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      scope: 'openid email',
      redirect_uri: `https://${clientId}.example.org/post`,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: 'st4te',
      ...extra,
    }).toString();
    let visit = await follow(browser, await browser.get(url.href), tessera.url);
    if (headingOf(visit.body) === 'Log in') visit = await follow(browser, await browser.submit(visit, { username: 'casuser', password: 'Mellon' }), tessera.url);
    return visit;
  }

  it('form_post: a page that posts the code and state to the redirect URI', async () => {
    const answer = await answerTo('formpost');
    expect(answer.status).to.equal(200);
    expect(answer.body).to.include('action="https://formpost.example.org/post"').and.match(/name="code" value="[^"]+"/).and.include('name="state" value="st4te"');
  });

  it('fragment: the code in the fragment of the redirect URI; a request naming query gets it in the query', async () => {
    expect((await answerTo('fragment')).location).to.match(/^https:\/\/fragment\.example\.org\/post#code=[^&]+&state=st4te/);
    expect((await answerTo('fragment', { response_mode: 'query' })).location).to.match(/^https:\/\/fragment\.example\.org\/post\?code=/);
  });

  it('query.jwt (JARM): the answer is a JWT signed with the provider key, for the client, holding the code and state', async () => {
    const answer = await answerTo('queryjwt');
    const location = new URL(answer.location ?? '');
    expect(`${location.origin}${location.pathname}`).to.equal('https://queryjwt.example.org/post');
    const { payload } = await jwtVerify(location.searchParams.get('response') ?? '', jwks, { issuer: `${tessera.url}/oidc`, audience: 'queryjwt' });
    expect(payload['code']).to.be.a('string');
    expect(payload['state']).to.equal('st4te');
  });

  it('form_post.jwt: a page that posts the signed answer as `response`', async () => {
    const answer = await answerTo('formpostjwt');
    const response = /name="response" value="([^"]+)"/.exec(answer.body)?.[1];
    const { payload } = await jwtVerify(response ?? '', jwks, { audience: 'formpostjwt' });
    expect(payload['code']).to.be.a('string');
  });
});

/** oidc-login-sonarqube: the code flow beside Apereo's implicit `token`, which tessera does not serve. */
const SONARQUBE = registration(81, 'sonarqube', {
  scopes: scopes('openid', 'profile', 'email'),
  supportedResponseTypes: ['java.util.HashSet', ['code', 'token', 'id_token token', 'id_token']],
  supportedGrantTypes: ['java.util.HashSet', ['client_credentials', 'refresh_token', 'authorization_code']],
  attributeReleasePolicy: chain(
    { '@class': `${CLAIMS}.OidcProfileScopeAttributeReleasePolicy`, order: 1, claimMappings: { '@class': 'java.util.TreeMap', preferred_username: 'uid' } },
    { '@class': `${CLAIMS}.OidcEmailScopeAttributeReleasePolicy`, order: 1 },
  ),
});

// docs/services.md (OAuth 2.0 and OpenID Connect clients): a type tessera never serves, listed beside others.
describe('oidc: a client listing the implicit token beside the code flow (Apereo’s SonarQube registration)', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startOidc({ users: [CASUSER], services: [SONARQUBE], oidc: { claimsMap: { email: 'mail' } } });
  });
  after(() => tessera?.close());

  it('the code flow works with its claims; a request for the bare token is refused; the start said so', async () => {
    const claims = await claimsThroughOpenidClient(tessera, 'sonarqube', SECRET, 'https://sonarqube.example.org/callback', 'openid email');
    expect(claims).to.deep.equal({ idToken: { email: 'casuser@example.org' }, userinfo: { email: 'casuser@example.org' } });
    const url = new URL(`${tessera.url}/oidc/auth`);
    url.search = new URLSearchParams({ client_id: 'sonarqube', response_type: 'token', scope: 'openid', redirect_uri: 'https://sonarqube.example.org/callback' }).toString();
    const answer = await fetch(url, { redirect: 'manual' });
    expect(answer.headers.get('location') ?? '').to.match(/error=unsupported_response_type/);
    expect(tessera.logs.some((line) => line.includes('its supportedResponseTypes hold token'))).to.equal(true);
  });
});

// docs/services.md (OAuth 2.0 and OpenID Connect clients): a client's keys, how it proves itself and how its ID tokens are signed and encrypted.
describe("oidc: a client's keys: jwks, idTokenSigningAlg, encryptIdToken, and how it authenticates", () => {
  let tessera: Tessera;
  let jwks: ReturnType<typeof createRemoteJWKSet>;
  let signing: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  let decrypting: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

  before(async () => {
    const signingPair = await generateKeyPair('RS256', { extractable: true });
    const encryptionPair = await generateKeyPair('RSA-OAEP-256', { extractable: true });
    signing = signingPair.privateKey;
    decrypting = encryptionPair.privateKey;
    const keys = JSON.stringify({
      keys: [
        { ...(await exportJWK(signingPair.publicKey)), kid: 'sig-1', alg: 'RS256', use: 'sig' },
        { ...(await exportJWK(encryptionPair.publicKey)), kid: 'enc-1', alg: 'RSA-OAEP-256', use: 'enc' },
      ],
    });
    const { clientSecret: _secret, ...withoutSecret } = registration(91, 'keyed', {});
    tessera = await startOidc({
      users: [CASUSER],
      services: [
        // Keys and no secret, its method unsaid: private_key_jwt, as Apereo takes an assertion signed with them.
        { ...withoutSecret, scopes: scopes('openid', 'email'), jwks: keys, idTokenSigningAlg: 'RS256', encryptIdToken: true, idTokenEncryptionAlg: 'RSA-OAEP-256', idTokenEncryptionEncoding: 'A128CBC-HS256' },
        registration(92, 'hmac', { tokenEndpointAuthenticationMethod: 'client_secret_jwt', scopes: scopes('openid') }),
      ],
      oidc: { claimsMap: { email: 'mail' } },
    });
    jwks = createRemoteJWKSet(new URL(`${tessera.url}/oidc/jwks`));
  });
  after(() => tessera?.close());

  it("private_key_jwt by its keys: the ID token is signed by the provider, then encrypted to the client's key, which alone opens it", async () => {
    const config = await client.discovery(new URL(`${tessera.url}/oidc`), 'keyed', undefined, client.PrivateKeyJwt({ key: signing, kid: 'sig-1' }), insecure);
    const { callback, verifier } = await authorizeThroughLoginForm(config, tessera.url, 'https://keyed.example.org/callback', 'openid email');
    // The token request by hand: the ID token is a JWE, which the test opens itself.
    const assertion = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid: 'sig-1' })
      .setIssuer('keyed')
      .setSubject('keyed')
      .setAudience(`${tessera.url}/oidc/token`)
      .setJti(crypto.randomUUID())
      .setIssuedAt()
      .setExpirationTime('1m')
      .sign(signing);
    const answer = await fetch(`${tessera.url}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code') ?? '',
        redirect_uri: 'https://keyed.example.org/callback',
        code_verifier: verifier,
        client_id: 'keyed',
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: assertion,
      }),
    });
    expect(answer.status).to.equal(200);
    const { id_token: idToken } = (await answer.json()) as { id_token: string };
    expect(idToken.split('.')).to.have.length(5);
    const { plaintext, protectedHeader } = await compactDecrypt(idToken, decrypting);
    expect(protectedHeader).to.deep.include({ alg: 'RSA-OAEP-256', enc: 'A128CBC-HS256' });
    const { payload, protectedHeader: signed } = await jwtVerify(new TextDecoder().decode(plaintext), jwks, { issuer: `${tessera.url}/oidc`, audience: 'keyed' });
    expect(signed.alg).to.equal('RS256');
    expect(payload).to.deep.include({ sub: 'casuser', email: 'casuser@example.org' });
  });

  it('client_secret_jwt: an assertion MACed with its secret authenticates it; one MACed with another is invalid_client', async () => {
    const config = await client.discovery(new URL(`${tessera.url}/oidc`), 'hmac', SECRET, client.ClientSecretJwt(SECRET), insecure);
    const tokens = await client.clientCredentialsGrant(config, { scope: 'openid' });
    expect(tokens.access_token).to.be.a('string');
    const wrong = await client.discovery(new URL(`${tessera.url}/oidc`), 'hmac', 'not-the-secret-of-hmac-at-all', client.ClientSecretJwt('not-the-secret-of-hmac-at-all'), insecure);
    const refused = await client.clientCredentialsGrant(wrong, { scope: 'openid' }).then(
      () => 'accepted',
      (error: unknown) => (error as { error?: string; code?: string }).error ?? (error as { code?: string }).code,
    );
    expect(refused).to.be.oneOf(['invalid_client', 'OAUTH_WWW_AUTHENTICATE_CHALLENGE']);
  });
});
