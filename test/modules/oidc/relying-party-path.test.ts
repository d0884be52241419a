import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { FixedClock } from '@tessera/testkit';
import { describeWithRedis } from '@tessera/testkit/redis';
import { Browser, formOf, headingOf, type Visit } from '../../support/browser.js';
import { APP, type Tessera } from '../../support/tessera.js';
import { freePort, logoutReceiver, startOidc } from './support.js';

const OIDC = 'org.apereo.cas.services.OidcRegisteredService';
const OAUTH = 'org.apereo.cas.support.oauth.services.OAuthRegisteredService';
const CAS = 'org.apereo.cas.services';
const SECRET = 'client-secret-of-at-least-16';
const OTP_SECRET = new Secret({ size: 20 }).base32;
const DENIED_PAGE = 'https://help.example.org/denied';
const MINUTE = 60_000;

const redirectUriOf = (clientId: string) => `https://${clientId}.example.org/callback`;
const allowed = (...names: string[]) => ({ '@class': `${CAS}.ReturnAllowedAttributeReleasePolicy`, allowedAttributes: ['java.util.ArrayList', names] });
const requiring = (values: Record<string, string[]>, more: Record<string, unknown> = {}) => ({
  '@class': `${CAS}.DefaultRegisteredServiceAccessStrategy`,
  requiredAttributes: { '@class': 'java.util.HashMap', ...Object.fromEntries(Object.entries(values).map(([name, list]) => [name, ['java.util.HashSet', list]])) },
  ...more,
});

/** An OpenID Connect client as Apereo files write them, its redirect URI `https://<clientId>.example.org/callback`. */
function oidcClient(id: number, clientId: string, more: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    '@class': OIDC,
    id,
    name: `Client ${clientId}`,
    serviceId: `^https://${clientId}\\.example\\.org/callback$`,
    clientId,
    clientSecret: SECRET,
    scopes: ['java.util.HashSet', ['openid', 'profile', 'email']],
    bypassApprovalPrompt: true,
    attributeReleasePolicy: { '@class': `${CAS}.ReturnAllAttributeReleasePolicy` },
    ...more,
  };
}

const mfa = (failureMode?: string) => ({
  '@class': `${CAS}.DefaultRegisteredServiceMultifactorPolicy`,
  multifactorAuthenticationProviders: ['java.util.LinkedHashSet', ['mfa-gauth']],
  ...(failureMode !== undefined && { failureMode }),
});

/** Every client of the tests, each refusing or releasing in one way of its definition. */
function clients(backChannel: string): Record<string, unknown>[] {
  return [
    oidcClient(30, 'plain'),
    oidcClient(31, 'staff', { accessStrategy: requiring({ memberOf: ['staff'] }) }),
    oidcClient(32, 'nostudents', { accessStrategy: { '@class': `${CAS}.DefaultRegisteredServiceAccessStrategy`, rejectedAttributes: { '@class': 'java.util.HashMap', memberOf: ['java.util.HashSet', ['students']] } } }),
    oidcClient(33, 'intranet', { accessStrategy: { '@class': `${CAS}.HttpRequestRegisteredServiceAccessStrategy`, ipAddress: '^10\\.' } }),
    oidcClient(34, 'kiosk', { accessStrategy: { '@class': `${CAS}.HttpRequestRegisteredServiceAccessStrategy`, userAgent: 'KioskBrowser/' } }),
    oidcClient(35, 'closed', { accessStrategy: { '@class': `${CAS}.TimeBasedRegisteredServiceAccessStrategy`, startingDateTime: '2019-01-01T00:00:00Z', endingDateTime: '2020-01-01T00:00:00Z' } }),
    oidcClient(36, 'nosso', { accessStrategy: { '@class': `${CAS}.DefaultRegisteredServiceAccessStrategy`, ssoEnabled: false } }),
    oidcClient(37, 'expired', { expirationPolicy: { '@class': `${CAS}.DefaultRegisteredServiceExpirationPolicy`, expirationDate: '2020-01-01' } }),
    oidcClient(38, 'disabled', { accessStrategy: { '@class': `${CAS}.DefaultRegisteredServiceAccessStrategy`, enabled: false } }),
    oidcClient(39, 'redirected', { accessStrategy: requiring({ memberOf: ['staff'] }, { unauthorizedRedirectUrl: DENIED_PAGE }) }),
    {
      '@class': OAUTH,
      id: 40,
      name: 'OAuth staff',
      serviceId: '^https://oauthstaff\\.example\\.org/callback$',
      clientId: 'oauthstaff',
      clientSecret: SECRET,
      bypassApprovalPrompt: true,
      accessStrategy: requiring({ memberOf: ['staff'] }),
    },
    oidcClient(41, 'mfa', { multifactorPolicy: mfa() }),
    oidcClient(42, 'mfaopen', { multifactorPolicy: mfa('OPEN') }),
    oidcClient(43, 'release', { attributeReleasePolicy: allowed('email', 'name', 'memberOf') }),
    oidcClient(44, 'mailsub', {
      attributeReleasePolicy: allowed('email'),
      usernameAttributeProvider: { '@class': `${CAS}.PrincipalAttributeRegisteredServiceUsernameProvider`, usernameAttribute: 'email' },
      logoutType: 'BACK_CHANNEL',
      logoutUrl: backChannel,
    }),
    oidcClient(45, 'pairwisea', { subjectType: 'pairwise', sectorIdentifierUri: 'https://sector-a.example.org/redirects.json', usernameAttributeProvider: pairwise() }),
    oidcClient(46, 'pairwiseb', { subjectType: 'pairwise', usernameAttributeProvider: pairwise() }),
    oidcClient(47, 'pairwisea2', { subjectType: 'pairwise', sectorIdentifierUri: 'https://sector-a.example.org/redirects.json', usernameAttributeProvider: pairwise() }),
    oidcClient(48, 'anon', {
      usernameAttributeProvider: { '@class': `${CAS}.AnonymousRegisteredServiceUsernameAttributeProvider`, persistentIdGenerator: { '@class': 'org.apereo.cas.authentication.principal.ShibbolethCompatiblePersistentIdGenerator', salt: 'pepper' } },
    }),
    oidcClient(50, 'consenting', { attributeReleasePolicy: { ...allowed('email'), consentPolicy: { '@class': `${CAS}.consent.DefaultRegisteredServiceConsentPolicy`, status: 'TRUE' } } }),
    oidcClient(49, 'branded', { name: 'Library portal', logo: 'https://cdn.example.org/library.png', informationUrl: 'https://library.example.org/about', privacyUrl: 'https://library.example.org/privacy' }),
  ];
}

function pairwise() {
  return { '@class': `${CAS}.PairwiseOidcRegisteredServiceUsernameAttributeProvider`, persistentIdGenerator: { '@class': 'org.apereo.cas.authentication.principal.OidcPairwisePersistentIdGenerator', salt: 'c2FsdA==' } };
}

/** The nodes a test runs on, all answering for one public URL (the first node's), each request to the next node in turn. */
interface Nodes {
  readonly publicUrl: string;
  readonly clock: FixedClock;
  readonly receiver: Awaited<ReturnType<typeof logoutReceiver>>;
  /** The URL of a request to the public URL, on the next node in turn. */
  route(url: string): string;
}

/** A browser whose requests a load balancer spreads over the nodes (cookies are per host, so they all see them). */
class SpreadBrowser {
  readonly browser: Browser;
  constructor(
    private readonly nodes: Nodes,
    headers: Readonly<Record<string, string>> = {},
  ) {
    this.browser = new Browser(headers);
  }
  get(url: string): Promise<Visit> {
    return this.browser.get(this.nodes.route(url));
  }
  submit(page: Visit, fields: Readonly<Record<string, string>>): Promise<Visit> {
    const form = formOf(page.body);
    return this.post(new URL(form.action, page.url).href, { ...form.hidden, ...fields });
  }
  post(url: string, fields: Readonly<Record<string, string>>): Promise<Visit> {
    return this.browser.post(this.nodes.route(url), fields);
  }
}

interface Authorization {
  readonly visit: Visit;
  readonly verifier: string;
  /** Back at the client: its code, or the error it was given. */
  readonly code?: string;
  readonly error?: string;
  /** The pages the browser was shown on the way, by their heading. */
  readonly shown: readonly string[];
}

interface AuthorizeOptions {
  readonly scope?: string;
  readonly prompt?: string;
  readonly maxAge?: number;
  readonly idTokenHint?: string;
  /** Who logs in when the login form comes (none: the form is where the walk stops). */
  readonly user?: readonly [string, string];
  /** The one-time code for a second-factor step, when one comes. */
  readonly otp?: () => string;
  /** Apereo's OAuth 2.0 endpoint instead of the OpenID Connect one. */
  readonly oauth?: boolean;
  /** Whether the request carries a nonce (an OAuth request may not: it asks for no ID token). */
  readonly nonce?: boolean;
  /** Allow on the consent page, when it comes. */
  readonly consent?: boolean;
}

describe('oidc: a client obeys its own service definition (the one relying-party path)', () => {
  describe('on the memory store', () => relyingPartyPath(async (receiver, clock) => {
    const tessera = await startNode(receiver, clock, {});
    return { nodes: [tessera], publicUrl: tessera.url };
  }));
  describeWithRedis('on Redis, two nodes behind one address', (redis) =>
    relyingPartyPath(async (receiver, clock) => {
      const folder = mkdtempSync(join(tmpdir(), 'tessera-rp-nodes-'));
      const [portA, portB] = [await freePort(), await freePort()];
      const shared = {
        storage: { type: 'redis', redis: { url: redis().url, keyPrefix: `rp${randomBytes(4).toString('hex')}:` } },
        login: { keyFile: join(folder, 'login-key.json') },
        oidc: { keyFile: join(folder, 'oidc-keys.json'), fetchPrivateAddresses: true },
      };
      const a = await startNode(receiver, clock, { ...shared, server: { host: '127.0.0.1', port: portA, nodeName: 'node-a', publicUrl: `http://127.0.0.1:${portA}` } });
      const b = await startNode(receiver, clock, { ...shared, server: { host: '127.0.0.1', port: portB, nodeName: 'node-b', publicUrl: `http://127.0.0.1:${portA}` } });
      return { nodes: [a, b], publicUrl: a.url };
    }),
  );
});

function startNode(receiver: { url: string }, clock: FixedClock, overrides: Record<string, unknown>): Promise<Tessera> {
  return startOidc(
    {
      modules: ['rest', 'otp', 'login', 'consent', 'oidc'],
      consent: { active: false },
      users: [
        { username: 'casuser', password: 'Mellon', otpSecret: OTP_SECRET, attributes: { email: ['casuser@example.org'], name: ['CAS User'], memberOf: ['staff'] } },
        { username: 'alice', password: 'secret', attributes: { email: ['alice@example.org'], name: ['Alice'], memberOf: ['students'] } },
      ],
      services: [
        { '@class': `${CAS}.CasRegisteredService`, id: 1, name: 'App', serviceId: '^https://app\\.example\\.org/.*', attributeReleasePolicy: { '@class': `${CAS}.ReturnAllAttributeReleasePolicy` } },
        ...clients(receiver.url),
      ],
      ...overrides,
      oidc: { fetchPrivateAddresses: true, ...(overrides['oidc'] as Record<string, unknown> | undefined) },
    },
    { clock },
  );
}

function relyingPartyPath(start: (receiver: Awaited<ReturnType<typeof logoutReceiver>>, clock: FixedClock) => Promise<{ nodes: Tessera[]; publicUrl: string }>): void {
  let nodes: Nodes;
  let servers: Tessera[] = [];
  let turn = 0;

  before(async function () {
    this.timeout(60_000);
    const receiver = await logoutReceiver();
    const clock = new FixedClock(Date.now());
    const started = await start(receiver, clock);
    servers = started.nodes;
    const { publicUrl } = started;
    nodes = {
      publicUrl,
      clock,
      receiver,
      route: (url) => (url.startsWith(publicUrl) ? `${servers[turn++ % servers.length]!.url}${url.slice(publicUrl.length)}` : url),
    };
  });
  after(async () => {
    await Promise.all(servers.map((server) => server.close()));
    nodes?.receiver.server.close();
  });

  const issuer = () => `${nodes.publicUrl}/oidc`;
  /** Each code once: the clock moves a step on before each is made. */
  const otp = () => {
    nodes.clock.advance(30_000);
    return TOTP.generate({ secret: Secret.fromBase32(OTP_SECRET), timestamp: nodes.clock.now() });
  };

  /** A browser's authorization request for `clientId`, walked until it leaves tessera or stops at a page. */
  async function authorize(browser: SpreadBrowser, clientId: string, options: AuthorizeOptions = {}): Promise<Authorization> {
    const verifier = randomBytes(32).toString('base64url');
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUriOf(clientId),
      scope: options.scope ?? 'openid profile email',
      state: 'state-1',
      ...(options.nonce !== false && { nonce: 'nonce-1' }),
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      ...(options.prompt !== undefined && { prompt: options.prompt }),
      ...(options.maxAge !== undefined && { max_age: String(options.maxAge) }),
      ...(options.idTokenHint !== undefined && { id_token_hint: options.idTokenHint }),
    });
    const start = options.oauth ? `${nodes.publicUrl}/oauth2.0/authorize` : `${issuer()}/auth`;
    let visit = await browser.get(`${start}?${query.toString()}`);
    const shown: string[] = [];
    for (let hops = 0; hops < 20; hops++) {
      if (visit.status >= 300 && visit.status < 400 && visit.location !== null) {
        const next = new URL(visit.location, visit.url).href;
        if (!next.startsWith(nodes.publicUrl) && !servers.some((server) => next.startsWith(server.url))) break;
        // A node answers for the public address: what it sent back to its own is the public address's.
        visit = await browser.get(next.startsWith(nodes.publicUrl) ? next : `${new URL(nodes.publicUrl).origin}${next.slice(new URL(next).origin.length)}`);
        continue;
      }
      // The provider's pages that submit themselves (an account switch logs the other user's provider session out first).
      const selfSubmitting = /<title>Submitting Callback<\/title>[\s\S]*<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/.exec(visit.body);
      if (selfSubmitting) {
        const fields = Object.fromEntries([...selfSubmitting[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)].map(([, name, value]) => [name!, value!]));
        visit = await browser.post(selfSubmitting[1]!.replaceAll('&amp;', '&'), fields);
        continue;
      }
      const heading = headingOf(visit.body) ?? '';
      shown.push(heading);
      if (heading === 'Log in' && options.user !== undefined) {
        visit = await browser.submit(visit, { username: options.user[0], password: options.user[1] });
      } else if (heading === 'One-time code' && options.otp !== undefined) {
        visit = await browser.submit(visit, { otp: options.otp() });
      } else if (heading === 'Share your information?' && options.consent === true) {
        visit = await browser.submit(visit, { decision: 'allow' });
      } else {
        break;
      }
    }
    const back = visit.location !== null && visit.location.startsWith(redirectUriOf(clientId)) ? new URL(visit.location) : undefined;
    const code = back?.searchParams.get('code') ?? undefined;
    const error = back?.searchParams.get('error') ?? undefined;
    return { visit, verifier, shown, ...(code !== undefined && { code }), ...(error !== undefined && { error }) };
  }

  const basic = (clientId: string) => `Basic ${Buffer.from(`${clientId}:${SECRET}`).toString('base64')}`;
  const post = (path: string, clientId: string, fields: Record<string, string>) =>
    fetch(nodes.route(`${issuer()}${path}`), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(clientId) }, body: new URLSearchParams(fields).toString() });

  /** The tokens of a code. */
  async function redeem(clientId: string, authorization: Authorization): Promise<{ access_token: string; id_token: string; claims: Record<string, unknown> }> {
    expect(authorization.code, `no code for ${clientId}: ${authorization.shown.join(' > ')} ${authorization.visit.status} ${authorization.visit.location ?? authorization.visit.body.slice(0, 300)}`).to.be.a('string');
    const response = await post('/token', clientId, { grant_type: 'authorization_code', code: authorization.code!, redirect_uri: redirectUriOf(clientId), code_verifier: authorization.verifier });
    expect(response.status).to.equal(200);
    const tokens = (await response.json()) as { access_token: string; id_token: string };
    return { ...tokens, claims: decodeJwt(tokens.id_token) };
  }

  const userinfo = async (accessToken: string) => fetch(nodes.route(`${issuer()}/me`), { headers: { authorization: `Bearer ${accessToken}` } });
  const introspect = async (clientId: string, token: string) => (await (await post('/token/introspection', clientId, { token })).json()) as Record<string, unknown>;
  const profile = async (accessToken: string) => (await (await fetch(nodes.route(`${nodes.publicUrl}/oauth2.0/profile`), { headers: { authorization: `Bearer ${accessToken}` } })).json()) as Record<string, unknown>;

  /** A browser with a CAS login session: the form filled in for a CAS service. */
  async function casSession(user: readonly [string, string] = ['casuser', 'Mellon']): Promise<SpreadBrowser> {
    const browser = new SpreadBrowser(nodes);
    const form = await browser.get(`${nodes.publicUrl}/login?service=${encodeURIComponent(APP)}`);
    const landed = await browser.submit(form, { username: user[0], password: user[1] });
    expect(landed.status, landed.body).to.equal(302);
    return browser;
  }

  describe('access: a client whose definition refuses the user gets no code', () => {
    it('requiredAttributes and rejectedAttributes: the refused user is sent back with access_denied, the allowed one gets a code', async () => {
      for (const clientId of ['staff', 'nostudents']) {
        const refused = await authorize(new SpreadBrowser(nodes), clientId, { user: ['alice', 'secret'] });
        expect(refused.code, clientId).to.equal(undefined);
        expect(refused.error, clientId).to.equal('access_denied');
        const granted = await authorize(new SpreadBrowser(nodes), clientId, { user: ['casuser', 'Mellon'] });
        expect(granted.code, clientId).to.be.a('string');
      }
    });

    it('a single sign-on session is refused as a new login is: the CAS session of a refused user gets no code without a form', async () => {
      const browser = await casSession(['alice', 'secret']);
      const refused = await authorize(browser, 'staff');
      expect(refused.shown, 'no login form for a session').to.deep.equal([]);
      expect(refused.error).to.equal('access_denied');
      const plain = await authorize(browser, 'plain');
      expect(plain.code, 'another client takes the same session').to.be.a('string');
    });

    it('ipAddress, userAgent and time-window rules: access_denied, with no login asked of the browser', async () => {
      for (const clientId of ['intranet', 'kiosk', 'closed']) {
        const refused = await authorize(new SpreadBrowser(nodes), clientId, { user: ['casuser', 'Mellon'] });
        expect(refused.code, clientId).to.equal(undefined);
        expect(refused.error, clientId).to.equal('access_denied');
        expect(refused.shown, clientId).to.not.include('Log in');
      }
      const kiosk = await authorize(new SpreadBrowser(nodes, { 'user-agent': 'KioskBrowser/2.0' }), 'kiosk', { user: ['casuser', 'Mellon'] });
      expect(kiosk.code, 'the agent the rule names is let in').to.be.a('string');
    });

    it('prompt=none decides as /login does, the User-Agent rule included: the agent it names gets a code without a page, another login_required', async () => {
      const kiosk = new SpreadBrowser(nodes, { 'user-agent': 'KioskBrowser/2.0' });
      expect((await authorize(kiosk, 'plain', { user: ['casuser', 'Mellon'] })).code).to.be.a('string');
      const silent = await authorize(kiosk, 'kiosk', { prompt: 'none' });
      expect(silent.code, silent.error).to.be.a('string');
      const other = new SpreadBrowser(nodes);
      expect((await authorize(other, 'plain', { user: ['casuser', 'Mellon'] })).code).to.be.a('string');
      expect((await authorize(other, 'kiosk', { prompt: 'none' })).error).to.equal('login_required');
    });

    it('ssoEnabled false: a CAS session is never enough, the password form comes; after it, a code', async () => {
      const browser = await casSession();
      const asked = await authorize(browser, 'nosso');
      expect(asked.shown).to.deep.equal(['Log in']);
      expect(asked.code).to.equal(undefined);
      const granted = await authorize(browser, 'nosso', { user: ['casuser', 'Mellon'] });
      expect(granted.code).to.be.a('string');
    });

    it('an expired or disabled client is no client: an error page, no redirect to it', async () => {
      for (const clientId of ['expired', 'disabled']) {
        const refused = await authorize(await casSession(), clientId);
        expect(refused.visit.status, clientId).to.equal(400);
        expect(refused.visit.location, clientId).to.equal(null);
        expect(refused.visit.body, clientId).to.include('invalid_client');
      }
    });

    it("unauthorizedRedirectUrl: the refused browser goes to the definition's page instead", async () => {
      const refused = await authorize(new SpreadBrowser(nodes), 'redirected', { user: ['alice', 'secret'] });
      expect(refused.visit.status).to.equal(302);
      expect(refused.visit.location).to.equal(DENIED_PAGE);
      expect(refused.code).to.equal(undefined);
    });

    it('the same at /oauth2.0/authorize: an OAuth client refusing the user gives access_denied', async () => {
      const refused = await authorize(new SpreadBrowser(nodes), 'oauthstaff', { user: ['alice', 'secret'], oauth: true, scope: 'profile', nonce: false });
      expect(refused.error).to.equal('access_denied');
      const granted = await authorize(new SpreadBrowser(nodes), 'oauthstaff', { user: ['casuser', 'Mellon'], oauth: true, scope: 'profile', nonce: false });
      expect(granted.code).to.be.a('string');
    });
  });

  describe('second factor: a client with a multifactorPolicy gets a code only after the factor', () => {
    it('a new login: the one-time code after the password; the ID token says what was proved (amr, acr)', async () => {
      const without = await authorize(new SpreadBrowser(nodes), 'mfa', { user: ['casuser', 'Mellon'] });
      expect(without.shown).to.deep.equal(['Log in', 'One-time code']);
      expect(without.code).to.equal(undefined);
      const granted = await authorize(new SpreadBrowser(nodes), 'mfa', { user: ['casuser', 'Mellon'], otp });
      const { claims } = await redeem('mfa', granted);
      expect(claims['amr']).to.deep.equal(['pwd', 'otp']);
      expect(claims['acr']).to.equal('mfa-gauth');
    });

    it('step-up from a single sign-on session: only the code is asked, then the code; a plain client sees the password alone', async () => {
      const browser = await casSession();
      const plain = await redeem('plain', await authorize(browser, 'plain'));
      expect(plain.claims['amr']).to.deep.equal(['pwd']);
      expect(plain.claims).to.not.have.property('acr');
      const stepped = await authorize(browser, 'mfa', { otp });
      expect(stepped.shown).to.deep.equal(['One-time code']);
      expect((await redeem('mfa', stepped)).claims['amr']).to.deep.equal(['pwd', 'otp']);
    });

    it('failureMode: a user without the factor is refused (CLOSED, the default) or let through (OPEN), as for CAS services', async () => {
      const closed = await authorize(new SpreadBrowser(nodes), 'mfa', { user: ['alice', 'secret'] });
      expect(closed.error).to.equal('access_denied');
      const open = await authorize(new SpreadBrowser(nodes), 'mfaopen', { user: ['alice', 'secret'] });
      const { claims } = await redeem('mfaopen', open);
      expect(claims['amr']).to.deep.equal(['pwd']);
      expect(claims).to.not.have.property('acr');
    });
  });

  describe('release: every answer about a token releases the same set', () => {
    it('the ID token, userinfo, introspection and /oauth2.0/profile: the release policy within the granted scopes', async () => {
      const tokens = await redeem('release', await authorize(new SpreadBrowser(nodes), 'release', { user: ['casuser', 'Mellon'], scope: 'openid email' }));
      expect(tokens.claims).to.include({ sub: 'casuser', email: 'casuser@example.org' });
      expect(tokens.claims, 'not in the email scope').to.not.have.property('name');
      expect(tokens.claims, 'not released by the policy').to.not.have.property('memberOf');
      const info = (await (await userinfo(tokens.access_token)).json()) as Record<string, unknown>;
      expect(info).to.deep.equal({ sub: 'casuser', email: 'casuser@example.org' });
      const introspected = await introspect('release', tokens.access_token);
      expect(introspected).to.include({ active: true, sub: 'casuser', email: 'casuser@example.org' });
      expect(introspected).to.not.have.property('name');
      // The provider's router takes any case and one trailing slash: so does the release at introspection.
      const spelledOtherwise = (await (await post('/TOKEN/Introspection/', 'release', { token: tokens.access_token })).json()) as Record<string, unknown>;
      expect(spelledOtherwise).to.include({ active: true, email: 'casuser@example.org' });
      const own = await profile(tokens.access_token);
      expect(own).to.deep.include({ id: 'casuser', attributes: { email: ['casuser@example.org'] } });
    });

    it('with the profile scope too, the name joins every answer', async () => {
      const tokens = await redeem('release', await authorize(new SpreadBrowser(nodes), 'release', { user: ['casuser', 'Mellon'], scope: 'openid profile email' }));
      expect(tokens.claims).to.include({ email: 'casuser@example.org', name: 'CAS User' });
      expect(await (await userinfo(tokens.access_token)).json()).to.deep.equal({ sub: 'casuser', email: 'casuser@example.org', name: 'CAS User' });
      expect(await introspect('release', tokens.access_token)).to.include({ email: 'casuser@example.org', name: 'CAS User' });
      expect((await profile(tokens.access_token))['attributes']).to.deep.equal({ email: ['casuser@example.org'], name: ['CAS User'] });
    });
  });

  describe('a fresh login when the client asks for one (OIDC Core 3.1.2.1)', () => {
    it('prompt=login: the password form comes again despite the session', async () => {
      const browser = await casSession();
      const asked = await authorize(browser, 'plain', { prompt: 'login' });
      expect(asked.shown).to.deep.equal(['Log in']);
      const granted = await authorize(browser, 'plain', { prompt: 'login', user: ['casuser', 'Mellon'] });
      expect(granted.shown).to.deep.equal(['Log in']);
      expect(granted.code).to.be.a('string');
    });

    it('max_age: a session older than it is not enough; a younger one is', async () => {
      const browser = await casSession();
      nodes.clock.advance(10 * MINUTE);
      const young = await authorize(browser, 'plain', { maxAge: 3600 });
      expect(young.shown).to.deep.equal([]);
      expect(young.code).to.be.a('string');
      const old = await authorize(browser, 'plain', { maxAge: 300 });
      expect(old.shown).to.deep.equal(['Log in']);
      const fresh = await authorize(browser, 'plain', { maxAge: 300, user: ['casuser', 'Mellon'] });
      const { claims } = await redeem('plain', fresh);
      expect(claims['auth_time']).to.equal(Math.floor(nodes.clock.now() / 1000));
    });

    it("id_token_hint naming another user: the session of casuser does not meet it; alice's login does, casuser's again is login_required", async () => {
      const aliceToken = (await redeem('plain', await authorize(new SpreadBrowser(nodes), 'plain', { user: ['alice', 'secret'] }))).id_token;
      const browser = await casSession();
      // The provider session of casuser first, then a request naming alice.
      await redeem('plain', await authorize(browser, 'plain'));
      const asked = await authorize(browser, 'plain', { idTokenHint: aliceToken });
      expect(asked.shown).to.deep.equal(['Log in']);
      const wrong = await authorize(browser, 'plain', { idTokenHint: aliceToken, user: ['casuser', 'Mellon'] });
      expect(wrong.error).to.equal('login_required');
      const right = await authorize(browser, 'plain', { idTokenHint: aliceToken, user: ['alice', 'secret'] });
      expect((await redeem('plain', right)).claims['sub']).to.equal('alice');
    });
  });

  describe('ended sessions: a token whose login session ended is inactive and refused', () => {
    it('a CAS logout: introspection says active false, userinfo refuses it', async () => {
      const browser = await casSession();
      const tokens = await redeem('plain', await authorize(browser, 'plain'));
      expect(await introspect('plain', tokens.access_token)).to.include({ active: true });
      await browser.get(`${nodes.publicUrl}/logout`);
      expect(await introspect('plain', tokens.access_token)).to.deep.equal({ active: false });
      expect((await userinfo(tokens.access_token)).status).to.equal(401);
    });

    it('the session expired (the clock moved past its lifetime): the same', async () => {
      const tokens = await redeem('plain', await authorize(new SpreadBrowser(nodes), 'plain', { user: ['casuser', 'Mellon'] }));
      nodes.clock.advance(9 * 60 * MINUTE);
      expect(await introspect('plain', tokens.access_token)).to.deep.equal({ active: false });
      expect((await userinfo(tokens.access_token)).status).to.equal(401);
    });
  });

  describe('who the user is to the client: its usernameAttributeProvider in every answer', () => {
    it('a principal attribute: the ID token, userinfo, introspection, the profile and the logout token all name the user by it', async () => {
      const browser = new SpreadBrowser(nodes);
      const tokens = await redeem('mailsub', await authorize(browser, 'mailsub', { user: ['casuser', 'Mellon'] }));
      expect(tokens.claims['sub']).to.equal('casuser@example.org');
      expect(((await (await userinfo(tokens.access_token)).json()) as Record<string, unknown>)['sub']).to.equal('casuser@example.org');
      expect((await introspect('mailsub', tokens.access_token))['sub']).to.equal('casuser@example.org');
      expect((await profile(tokens.access_token))['id']).to.equal('casuser@example.org');
      const before = nodes.receiver.tokens.length;
      await browser.get(`${nodes.publicUrl}/logout`);
      const logoutTokens = nodes.receiver.tokens.slice(before).map((token) => decodeJwt(token));
      expect(logoutTokens.map((token) => token.sub)).to.deep.equal(['casuser@example.org']);
    });

    it('pairwise (OIDC Core §8.1): one subject per sector, the same on each node and each time, never the principal id', async () => {
      const subjectAt = async (clientId: string) => (await redeem(clientId, await authorize(new SpreadBrowser(nodes), clientId, { user: ['casuser', 'Mellon'] }))).claims['sub'];
      const [a, a2, b, aAgain] = [await subjectAt('pairwisea'), await subjectAt('pairwisea2'), await subjectAt('pairwiseb'), await subjectAt('pairwisea')];
      expect(a).to.be.a('string').and.not.equal('casuser');
      expect(a2, 'the same sector').to.equal(a);
      expect(b, 'another sector').to.not.equal(a);
      expect(aAgain).to.equal(a);
      expect(a).to.equal(createHash('sha1').update('sector-a.example.org').update('!').update('casuser').update('!').update('c2FsdA==').digest('base64'));
      expect(b).to.equal(createHash('sha1').update('pairwiseb.example.org').update('!').update('casuser').update('!').update('c2FsdA==').digest('base64'));
    });

    it('anonymous: an opaque id in the ID token, userinfo and introspection alike', async () => {
      const tokens = await redeem('anon', await authorize(new SpreadBrowser(nodes), 'anon', { user: ['casuser', 'Mellon'] }));
      const subject = tokens.claims['sub'];
      expect(subject).to.be.a('string').and.not.equal('casuser');
      expect(((await (await userinfo(tokens.access_token)).json()) as Record<string, unknown>)['sub']).to.equal(subject);
      expect((await introspect('anon', tokens.access_token))['sub']).to.equal(subject);
    });
  });

  describe('what a person sees', () => {
    it("consent to a client is kept for its serviceId, not for the interaction's own callback: its next authorization is not asked again, and the audit names the client", async () => {
      const browser = new SpreadBrowser(nodes);
      const first = await authorize(browser, 'consenting', { user: ['casuser', 'Mellon'], consent: true });
      expect(first.shown).to.deep.equal(['Log in', 'Share your information?']);
      expect((await redeem('consenting', first)).claims['email']).to.equal('casuser@example.org');
      const given = servers.flatMap((server) => server.audit.map((line) => JSON.parse(line) as Record<string, unknown>)).filter((line) => line['action'] === 'consent.given');
      expect(given.at(-1)).to.deep.include({ who: 'casuser', service: '^https://consenting\\.example\\.org/callback$', attributes: ['email'] });
      const again = await authorize(browser, 'consenting');
      expect(again.shown, 'the decision counts').to.deep.equal([]);
      expect((await redeem('consenting', again)).claims['email']).to.equal('casuser@example.org');
    });

    it('the login page names the client: its name and the host of its redirect URI, its logo and its pages', async () => {
      const asked = await authorize(new SpreadBrowser(nodes), 'branded');
      expect(asked.shown).to.deep.equal(['Log in']);
      const page = asked.visit.body;
      expect(page).to.include('Log in to continue to <strong>Library portal (branded.example.org)</strong>.');
      expect(page).to.include('<img class="service-logo" src="https://cdn.example.org/library.png" alt="">');
      expect(page).to.include('<a href="https://library.example.org/about" rel="noopener noreferrer">About this application</a>');
      expect(page).to.include('<a href="https://library.example.org/privacy" rel="noopener noreferrer">Privacy policy</a>');
    });
  });
}
