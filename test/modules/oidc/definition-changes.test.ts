import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { Browser, headingOf, type Visit } from '../../support/browser.js';
import type { Tessera } from '../../support/tessera.js';
import { startOidc } from './support.js';

const CAS = 'org.apereo.cas.services';
const OIDC = `${CAS}.OidcRegisteredService`;
const OAUTH = 'org.apereo.cas.support.oauth.services.OAuthRegisteredService';
const SECRET = 'client-secret-of-at-least-16';
const STAFF = { '@class': `${CAS}.DefaultRegisteredServiceAccessStrategy`, requiredAttributes: { '@class': 'java.util.HashMap', memberOf: ['java.util.HashSet', ['staff']] } };
const ADMINS = { '@class': `${CAS}.DefaultRegisteredServiceAccessStrategy`, requiredAttributes: { '@class': 'java.util.HashMap', memberOf: ['java.util.HashSet', ['admins']] } };
const CLOSED = { '@class': `${CAS}.TimeBasedRegisteredServiceAccessStrategy`, startingDateTime: '2019-01-01T00:00:00Z', endingDateTime: '2020-01-01T00:00:00Z' };
const DISABLED = { '@class': `${CAS}.DefaultRegisteredServiceAccessStrategy`, enabled: false };

/** A confidential client with refresh tokens and the client_credentials grant, `accessStrategy` as given. */
function definition(id: number, clientId: string, accessStrategy: Record<string, unknown>, type = OIDC): Record<string, unknown> {
  return {
    '@class': type,
    id,
    name: `Client ${clientId}`,
    serviceId: `^https://${clientId}\\.example\\.org/callback$`,
    clientId,
    clientSecret: SECRET,
    ...(type === OIDC && { scopes: ['java.util.HashSet', ['openid', 'email']] }),
    supportedGrantTypes: ['java.util.HashSet', ['authorization_code', 'refresh_token', 'client_credentials']],
    bypassApprovalPrompt: true,
    generateRefreshToken: true,
    attributeReleasePolicy: { '@class': `${CAS}.ReturnAllAttributeReleasePolicy` },
    accessStrategy,
  };
}

// docs/modules/oidc.md (One relying-party path): a client's definition decides for its tokens too, not
// only for the authorization that made them. When an operator tightens it (its required attributes, its
// time window, `enabled`), a user it now refuses gets no more tokens from a code or a refresh token
// issued before, and the tokens already out serve no more (userinfo, introspection, the OAuth profile);
// the client's own tokens (client_credentials) wait for its time window.
describe("oidc: a client's definition changed while its tokens are out", () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startOidc({
      modules: ['rest', 'login', 'services', 'oidc'],
      registration: { requiredAttribute: { name: 'memberOf', valuePattern: 'staff' }, acceptedTypes: [OIDC, OAUTH] },
      services: [definition(31, 'staffonly', STAFF), definition(32, 'windowed', STAFF), definition(33, 'switched', STAFF), definition(34, 'oauthstaff', STAFF, OAUTH), definition(35, 'released', STAFF)],
    });
  });
  after(() => tessera.close());

  const basic = (clientId: string) => `Basic ${Buffer.from(`${clientId}:${SECRET}`).toString('base64')}`;
  const form = (path: string, clientId: string, fields: Record<string, string>) =>
    fetch(`${tessera.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(clientId) }, body: new URLSearchParams(fields).toString() });

  /** An operator saves the client's definition anew (the services module's registration API). */
  async function redefine(saved: Record<string, unknown>): Promise<void> {
    const response = await fetch(`${tessera.url}/v1/services`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from('casuser:Mellon').toString('base64')}` },
      body: JSON.stringify(saved),
    });
    expect(response.status, await response.clone().text()).to.equal(200);
  }

  /** casuser's code for the client through the login form, then a second by single sign-on; the verifier of both. */
  async function twoCodes(clientId: string, oauth = false): Promise<{ codes: [string, string]; verifier: string }> {
    const browser = new Browser();
    const verifier = randomBytes(32).toString('base64url');
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: `https://${clientId}.example.org/callback`,
      scope: oauth ? 'profile' : 'openid email',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    const codeOf = async () => {
      let visit: Visit = await browser.get(`${tessera.url}${oauth ? '/oauth2.0/authorize' : '/oidc/auth'}?${query.toString()}`);
      for (let hops = 0; hops < 10; hops++) {
        if (headingOf(visit.body) === 'Log in') visit = await browser.submit(visit, { username: 'casuser', password: 'Mellon' });
        else if (visit.location?.startsWith(tessera.url)) visit = await browser.get(visit.location);
        else break;
      }
      const code = visit.location === null ? null : new URL(visit.location).searchParams.get('code');
      expect(code, visit.location ?? visit.body).to.be.a('string');
      return code!;
    };
    return { codes: [await codeOf(), await codeOf()], verifier };
  }

  async function tokensFor(clientId: string, code: string, verifier: string) {
    const response = await form('/oidc/token', clientId, { grant_type: 'authorization_code', code, redirect_uri: `https://${clientId}.example.org/callback`, code_verifier: verifier });
    return { status: response.status, body: (await response.json()) as Record<string, string> };
  }

  /** What each way of using the tokens answers now. */
  async function tokenUses(clientId: string, tokens: Record<string, string>) {
    const refreshed = await form('/oidc/token', clientId, { grant_type: 'refresh_token', refresh_token: tokens['refresh_token']! });
    const userinfo = await fetch(`${tessera.url}/oidc/me`, { headers: { authorization: `Bearer ${tokens['access_token']}` } });
    const introspected = (await (await form('/oidc/token/introspection', clientId, { token: tokens['access_token']! })).json()) as Record<string, unknown>;
    const profile = await fetch(`${tessera.url}/oauth2.0/profile`, { headers: { authorization: `Bearer ${tokens['access_token']}` } });
    return { refresh: refreshed.status, refreshError: ((await refreshed.json()) as { error?: string }).error, userinfo: userinfo.status, active: introspected['active'], profile: profile.status };
  }

  it('required attributes the user no longer meets: no tokens for a code or a refresh token issued before, and those out serve no more', async () => {
    const { codes, verifier } = await twoCodes('staffonly');
    const { status, body: tokens } = await tokensFor('staffonly', codes[0], verifier);
    expect(status).to.equal(200);
    expect(await tokenUses('staffonly', tokens)).to.include({ refresh: 200, userinfo: 200, active: true, profile: 200 });
    await redefine(definition(31, 'staffonly', ADMINS));
    expect(await tokenUses('staffonly', tokens)).to.deep.equal({ refresh: 400, refreshError: 'invalid_grant', userinfo: 401, active: false, profile: 401 });
    const redeemed = await tokensFor('staffonly', codes[1], verifier);
    expect(redeemed.status).to.equal(400);
    expect(redeemed.body['error']).to.equal('invalid_grant');
  });

  it("a time window that has closed: no refresh, the tokens out serve no more, and the client's own token waits for the window", async () => {
    const { codes, verifier } = await twoCodes('windowed');
    const { body: tokens } = await tokensFor('windowed', codes[0], verifier);
    expect((await form('/oidc/token', 'windowed', { grant_type: 'client_credentials' })).status).to.equal(200);
    await redefine(definition(32, 'windowed', CLOSED));
    expect(await tokenUses('windowed', tokens)).to.deep.equal({ refresh: 400, refreshError: 'invalid_grant', userinfo: 401, active: false, profile: 401 });
    const own = await form('/oidc/token', 'windowed', { grant_type: 'client_credentials' });
    expect(own.status).to.equal(400);
    expect(((await own.json()) as { error: string }).error).to.equal('unauthorized_client');
  });

  it('a client switched off (enabled: false): no grant at all, the tokens out serve no more', async () => {
    const { codes, verifier } = await twoCodes('switched');
    const { body: tokens } = await tokensFor('switched', codes[0], verifier);
    await redefine(definition(33, 'switched', DISABLED));
    const uses = await tokenUses('switched', tokens);
    expect(uses.refresh).to.equal(401);
    expect(uses).to.include({ userinfo: 401, profile: 401 });
    expect((await form('/oidc/token', 'switched', { grant_type: 'client_credentials' })).status).to.equal(401);
  });

  it('a release policy changed: the next userinfo answer of a token out releases what the new definition releases', async () => {
    const { codes, verifier } = await twoCodes('released');
    const { body: tokens } = await tokensFor('released', codes[0], verifier);
    const userinfo = async () => (await (await fetch(`${tessera.url}/oidc/me`, { headers: { authorization: `Bearer ${tokens['access_token']}` } })).json()) as Record<string, unknown>;
    expect(await userinfo()).to.deep.equal({ sub: 'casuser', email: 'casuser@example.org' });
    expect(await userinfo()).to.deep.equal({ sub: 'casuser', email: 'casuser@example.org' });
    const onlyVerified = { '@class': 'org.apereo.cas.oidc.claims.OidcEmailScopeAttributeReleasePolicy', allowedAttributes: ['java.util.ArrayList', ['email_verified']] };
    await redefine({ ...definition(35, 'released', STAFF), attributeReleasePolicy: onlyVerified });
    expect(await userinfo()).to.deep.equal({ sub: 'casuser' });
  });

  it('an OAuth 2.0 client: the profile of a token whose user the client now refuses is refused', async () => {
    const { codes, verifier } = await twoCodes('oauthstaff', true);
    const { body: tokens } = await tokensFor('oauthstaff', codes[0], verifier);
    const profile = () => fetch(`${tessera.url}/oauth2.0/profile`, { headers: { authorization: `Bearer ${tokens['access_token']}` } });
    expect((await profile()).status).to.equal(200);
    await redefine(definition(34, 'oauthstaff', ADMINS, OAUTH));
    expect((await profile()).status).to.equal(401);
    expect((await form('/oauth2.0/accessToken', 'oauthstaff', { grant_type: 'refresh_token', refresh_token: tokens['refresh_token']! })).status).to.equal(400);
  });
});
