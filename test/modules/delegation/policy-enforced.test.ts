import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import * as client from 'openid-client';
import { Browser, formOf, headingOf } from '../../support/browser.js';
import { APP, type Tessera } from '../../support/tessera.js';
import { logIn, startLogin, validate } from '../login/support.js';
import { CLIENT_ID, CLIENT_SECRET, follow, REDIRECT_URI, RP_SERVICE } from '../oidc/support.js';
import { delegatedService, freePort, startDelegation } from './support.js';

const EXCLUSIVE = 'https://exclusive.example.org/app';
const OTHER_ONLY = 'https://other-only.example.org/app';
const BOTH_EXCLUSIVE = 'https://both-exclusive.example.org/app';

/** The OIDC client (RP_SERVICE) its users reach through this upstream provider only. */
function rpThrough(provider: string): Record<string, unknown> {
  return { ...RP_SERVICE, accessStrategy: delegatedService(10, 'rp.example.org', { allowedProviders: ['java.util.ArrayList', [provider]], exclusive: true })['accessStrategy'] };
}

// docs/modules/delegation.md: a service's delegatedAuthenticationPolicy decides which logins reach it, not only
// which buttons its page shows, as Apereo CAS enforces it: a session through a provider the policy does not
// allow, or made another way when the policy's providers are exclusive, gets the login page instead of single
// sign-on, no ticket, and no validation.
describe('delegation: the service’s policy over single sign-on, tickets and validation', () => {
  let upstream: Tessera;
  let tessera: Tessera;
  let base: string;
  before(async () => {
    const port = await freePort();
    base = `http://localhost:${port}/cas`;
    upstream = await startLogin({
      users: [{ username: 'bob', password: 'Builder', attributes: { mail: ['bob@partner.example'] } }],
      services: [
        {
          '@class': 'org.apereo.cas.services.CasRegisteredService',
          id: 1,
          name: 'Our tessera',
          serviceId: `^http://localhost:${port}/cas/delegation/callback/.*`,
          attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllAttributeReleasePolicy' },
        },
      ],
    });
    // Two providers on the same upstream: a login through one is "another upstream provider" to a service allowing the other.
    tessera = await startDelegation({
      modules: ['rest', 'login', 'delegation', 'oidc', 'services'],
      // casuser (staff) saves definitions through the services module's API, as an operator.
      registration: { requiredAttribute: { name: 'memberOf', valuePattern: 'staff' }, acceptedTypes: ['org.apereo.cas.services.OidcRegisteredService'] },
      oidc: { keyFile: join(mkdtempSync(join(tmpdir(), 'tessera-delegation-')), 'oidc-keys.json') },
      server: { host: '127.0.0.1', port, nodeName: 'e2e', publicUrl: `http://localhost:${port}` },
      delegation: {
        providers: [
          { id: 'partner-cas', type: 'cas', title: 'Partner CAS', cas: { serverUrl: upstream.url } },
          { id: 'other-cas', type: 'cas', title: 'Other CAS', cas: { serverUrl: upstream.url } },
        ],
      },
      services: [
        {
          '@class': 'org.apereo.cas.services.CasRegisteredService',
          id: 1,
          name: 'App',
          serviceId: '^https://app\\.example\\.org/.*',
          attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllAttributeReleasePolicy' },
        },
        delegatedService(41, 'exclusive.example.org', { allowedProviders: ['java.util.ArrayList', ['partner-cas']], exclusive: true }),
        delegatedService(42, 'other-only.example.org', { allowedProviders: ['java.util.ArrayList', ['other-cas']] }),
        // An OIDC client its users reach through partner-cas only.
        rpThrough('partner-cas'),
        delegatedService(43, 'both-exclusive.example.org', { allowedProviders: ['java.util.ArrayList', ['partner-cas', 'other-cas']], exclusive: true }),
      ],
    });
  });
  after(async () => {
    await tessera?.close();
    await upstream?.close();
  });

  /** The user logs in through `provider` (the upstream's password form), for APP; the session's browser. */
  async function delegatedSession(provider: string): Promise<Browser> {
    const browser = new Browser();
    const page = await browser.get(`${base}/login?service=${encodeURIComponent(APP)}`);
    const left = await browser.post(`${base}/delegation/login`, { ...formOf(page.body).hidden, delegatedProvider: provider });
    expect(left.status, left.body).to.equal(302);
    const answered = await browser.submit(await browser.get(left.location!), { username: 'bob', password: 'Builder' });
    const back = await browser.get(answered.location!);
    const landing = await browser.submit(back);
    expect(landing.status, landing.body).to.equal(302);
    expect(landing.location).to.match(/^https:\/\/app\.example\.org\/.*ticket=ST-/);
    return browser;
  }

  const ticketOf = (location: string | null | undefined) => new URL(location!).searchParams.get('ticket')!;

  it('a password session reaches a service without a policy, but not one whose providers are exclusive: the login page with its buttons, no password form', async () => {
    const browser = new Browser();
    const landing = await logIn(browser, base, APP);
    expect(landing.status, landing.body).to.equal(302);
    const exclusive = await browser.get(`${base}/login?service=${encodeURIComponent(EXCLUSIVE)}`);
    expect(exclusive.status, exclusive.body).to.equal(200);
    expect(exclusive.body).to.include('name="delegatedProvider" value="partner-cas"').and.include('id="delegation-redirect"');
    const several = await browser.get(`${base}/login?service=${encodeURIComponent(BOTH_EXCLUSIVE)}`);
    expect(several.status).to.equal(200);
    expect(several.body).to.include('value="partner-cas"').and.include('value="other-cas"');
    expect(several.body).to.not.match(/name="password"/);
    // The password form of a service not exclusive is still there.
    const open = await new Browser().get(`${base}/login?service=${encodeURIComponent(OTHER_ONLY)}`);
    expect(open.body).to.match(/name="password"/);
    // A password posted anyway for the exclusive service makes no ticket for it.
    const posted = await new Browser().post(`${base}/login?service=${encodeURIComponent(BOTH_EXCLUSIVE)}`, { ...formOf(several.body).hidden, username: 'casuser', password: 'Mellon' });
    expect(posted.location ?? '', posted.body).to.not.include('ticket=');
  });

  it('a password session gets no ticket over REST for an exclusive service', async () => {
    const tgt = await fetch(`${base}/v1/tickets`, { method: 'POST', body: new URLSearchParams({ username: 'casuser', password: 'Mellon' }) });
    expect(tgt.status).to.equal(201);
    const tgtUrl = tgt.headers.get('location')!;
    const allowed = await fetch(tgtUrl, { method: 'POST', body: new URLSearchParams({ service: APP }) });
    expect(allowed.status).to.equal(200);
    const refused = await fetch(tgtUrl, { method: 'POST', body: new URLSearchParams({ service: EXCLUSIVE }) });
    expect(refused.status, await refused.text()).to.equal(403);
  });

  it('a session through an allowed provider reaches the exclusive service by single sign-on and validates; one a policy does not allow gets the login page', async () => {
    const browser = await delegatedSession('partner-cas');
    const sso = await browser.get(`${base}/login?service=${encodeURIComponent(EXCLUSIVE)}`);
    expect(sso.status, sso.body).to.equal(302);
    const validated = await validate(base, EXCLUSIVE, ticketOf(sso.location));
    expect(validated.user).to.equal('bob');
    expect(validated.attributes?.['delegatedProvider']).to.deep.equal(['partner-cas']);
    // other-only allows other-cas alone: this session is another provider's.
    const refused = await browser.get(`${base}/login?service=${encodeURIComponent(OTHER_ONLY)}`);
    expect(refused.status, refused.body).to.equal(200);
    expect(refused.body).to.include('value="other-cas"').and.not.include('value="partner-cas"');

    // The other provider's session: the reverse.
    const other = await delegatedSession('other-cas');
    expect((await other.get(`${base}/login?service=${encodeURIComponent(OTHER_ONLY)}`)).status).to.equal(302);
    expect((await other.get(`${base}/login?service=${encodeURIComponent(EXCLUSIVE)}`)).status).to.equal(200);
    const both = await other.get(`${base}/login?service=${encodeURIComponent(BOTH_EXCLUSIVE)}`);
    expect(both.status).to.equal(302);
    expect((await validate(base, BOTH_EXCLUSIVE, ticketOf(both.location))).user).to.equal('bob');
  });

  it('an OIDC client whose policy allows partner-cas exclusively: a password session gets the login page (prompt=none: login_required), a partner-cas session its code without one', async () => {
    const rp = await client.discovery(new URL(`${base}/oidc`), CLIENT_ID, CLIENT_SECRET, client.ClientSecretBasic(CLIENT_SECRET), { execute: [client.allowInsecureRequests] });
    const authorize = async (browser: Browser, prompt?: string) => {
      const url = client.buildAuthorizationUrl(rp, {
        redirect_uri: REDIRECT_URI,
        scope: 'openid',
        code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
        ...(prompt !== undefined && { prompt }),
      });
      return follow(browser, await browser.get(url.href), base);
    };

    const password = new Browser();
    expect((await logIn(password, base, APP)).status).to.equal(302);
    const page = await authorize(password);
    expect(page.status, page.body).to.equal(200);
    expect(headingOf(page.body)).to.equal('Log in');
    expect(page.body).to.include('value="partner-cas"').and.not.match(/name="password"/);
    const silent = await authorize(password, 'none');
    expect(new URL(silent.location!).searchParams.get('error'), silent.body).to.equal('login_required');

    const delegated = await delegatedSession('partner-cas');
    const answered = await authorize(delegated);
    expect(answered.location, answered.body).to.match(/^https:\/\/rp\.example\.org\/callback\?code=/);
  });

  it("an OIDC client whose policy then allows only another provider: the tokens of a partner-cas login refresh no more, userinfo refuses them, a code issued before is refused", async () => {
    const basic = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;
    const token = (fields: Record<string, string>) => fetch(`${base}/oidc/token`, { method: 'POST', headers: { authorization: basic }, body: new URLSearchParams(fields) });
    const browser = await delegatedSession('partner-cas');
    const verifier = client.randomPKCECodeVerifier();
    const codeOf = async () => {
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: CLIENT_ID,
        redirect_uri: REDIRECT_URI,
        scope: 'openid email',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });
      const answered = await follow(browser, await browser.get(`${base}/oidc/auth?${query.toString()}`), base);
      const code = new URL(answered.location!).searchParams.get('code');
      expect(code, answered.location ?? answered.body).to.be.a('string');
      return code!;
    };
    const [first, second] = [await codeOf(), await codeOf()];
    const issued = await token({ grant_type: 'authorization_code', code: first, redirect_uri: REDIRECT_URI, code_verifier: verifier });
    const tokens = (await issued.json()) as Record<string, string>;
    expect(issued.status, JSON.stringify(tokens)).to.equal(200);
    expect(tokens['refresh_token']).to.be.a('string');
    const userinfo = () => fetch(`${base}/oidc/me`, { headers: { authorization: `Bearer ${tokens['access_token']}` } });
    expect((await userinfo()).status).to.equal(200);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: tokens['refresh_token']! });
    const renewed = (await refreshed.json()) as Record<string, string>;
    expect(refreshed.status, JSON.stringify(renewed)).to.equal(200);

    // The operator lets the client's users in through other-cas only: this login came through partner-cas.
    const saved = await fetch(`${base}/v1/services`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from('casuser:Mellon').toString('base64')}` },
      body: JSON.stringify(rpThrough('other-cas')),
    });
    expect(saved.status, await saved.text()).to.equal(200);

    const refused = await token({ grant_type: 'refresh_token', refresh_token: renewed['refresh_token']! });
    expect(refused.status).to.equal(400);
    expect(((await refused.json()) as { error: string }).error).to.equal('invalid_grant');
    expect((await userinfo()).status).to.equal(401);
    const late = await token({ grant_type: 'authorization_code', code: second, redirect_uri: REDIRECT_URI, code_verifier: verifier });
    expect(late.status).to.equal(400);
    expect(((await late.json()) as { error: string }).error).to.equal('invalid_grant');
  });
});
