import { expect } from 'chai';
import { describeWithRedis } from '@tessera/testkit/redis';
import { Browser, formOf, headingOf } from '../../support/browser.js';
import { APP, type Tessera } from '../../support/tessera.js';
import { MovableClock } from '../webauthn/support.js';
import { freePort, startDelegation } from './support.js';
import { startOidcUpstream, throughUpstream, UPSTREAM_CLIENT, type OidcUpstreamServer } from './oidc-upstream.js';

/** Logout on: the session's upstream logout follows tessera's. */
const WITH_LOGOUT = 'partner-oidc';
/** The same upstream, logout off. */
const WITHOUT_LOGOUT = 'plain-oidc';
/** Logout on, at an upstream whose discovery has no end_session_endpoint. */
const NO_END_SESSION = 'no-end-session';
/** The session's lifetime in these tests (tickets.tgt.maxTimeToLiveSeconds). */
const SESSION_SECONDS = 3600;

interface Setup {
  readonly upstream: OidcUpstreamServer;
  readonly plainUpstream: OidcUpstreamServer;
  /** The nodes, on one public URL: the browser reaches each at its own port (a load balancer the test stands for). */
  readonly nodes: readonly Tessera[];
  readonly base: string;
  readonly clock: MovableClock;
}

const nodeBase = (node: Tessera, base: string) => base.replace(/:\d+\/cas$/, `:${new URL(node.url).port}/cas`);


/** The claims of a JWT's payload, unverified (the upstream signed it; the test reads who it names). */
function claimsOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

// docs/modules/delegation.md (Logging out upstream): a tessera logout that ends the upstream session too, per provider.
describe('delegation: a logout at tessera ends the upstream session too, where the provider says so', () => {
  describe('on the memory store', () => upstreamLogouts(() => ({}), 1));
  describeWithRedis('on Redis, two nodes (log in at one, log out at the other)', (redis) => {
    const prefix = `dlogout${Math.random().toString(36).slice(2, 8)}:`;
    upstreamLogouts(() => ({ storage: { type: 'redis', redis: { url: redis().url, keyPrefix: prefix } } }), 2, (namespace) => redis().cli('--scan', '--pattern', `${prefix}rec:${namespace}:*`).split('\n').filter((line) => line.trim() !== '').length);
  });
});

function upstreamLogouts(storage: () => Record<string, unknown>, nodeCount: number, stored?: (namespace: string) => number): void {
  let setup: Setup;
  before(async () => {
    const clock = new MovableClock();
    const ports = await Promise.all(Array.from({ length: nodeCount }, () => freePort()));
    const publicPort = ports[0]!;
    const base = `http://localhost:${publicPort}/cas`;
    const callback = (provider: string) => `${base}/delegation/callback/${provider}`;
    const upstream = await startOidcUpstream(callback(WITH_LOGOUT), { moreRedirectUris: [callback(WITHOUT_LOGOUT)], postLogoutRedirectUris: [`${base}/delegation/logout`] });
    const plainUpstream = await startOidcUpstream(callback(NO_END_SESSION), { logout: false });
    const oidc = (server: OidcUpstreamServer) => ({ issuer: server.issuer, clientId: UPSTREAM_CLIENT.id, clientSecret: UPSTREAM_CLIENT.secret });
    const shared = storage();
    const nodes = await Promise.all(
      ports.map((port) =>
        startDelegation(
          {
            server: { host: '127.0.0.1', port, nodeName: `n${port}`, publicUrl: `http://localhost:${publicPort}` },
            login: { key: Buffer.alloc(32, 9).toString('base64url') },
            tickets: { tgt: { maxTimeToLiveSeconds: SESSION_SECONDS } },
            ...shared,
            delegation: {
              providers: [
                { id: WITH_LOGOUT, type: 'oidc', title: 'Partner OIDC', oidc: oidc(upstream), logout: true },
                { id: WITHOUT_LOGOUT, type: 'oidc', title: 'Partner OIDC, no logout', oidc: oidc(upstream) },
                { id: NO_END_SESSION, type: 'oidc', title: 'No end session', oidc: oidc(plainUpstream), logout: true },
              ],
            },
          },
          { clock },
        ),
      ),
    );
    setup = { upstream, plainUpstream, nodes, base, clock };
  });
  after(async () => {
    for (const node of setup?.nodes ?? []) await node.close();
    await setup?.upstream.close();
    await setup?.plainUpstream.close();
  });

  /** The node a browser logs in at, and the one it logs out at (another, with two). */
  const loginNode = () => nodeBase(setup.nodes[0]!, setup.base);
  const logoutNode = () => nodeBase(setup.nodes[setup.nodes.length - 1]!, setup.base);

  /** Logs `user` in through `provider` at the login node, for APP: the browser has a session (checked by single sign-on). */
  async function logIn(browser: Browser, provider: string, user: string): Promise<{ readonly askedPassword: boolean }> {
    const page = await browser.get(`${loginNode()}/login?service=${encodeURIComponent(APP)}`);
    const left = await browser.post(`${loginNode()}/delegation/login`, { ...formOf(page.body).hidden, delegatedProvider: provider });
    expect(left.status, left.body).to.equal(302);
    const issuer = new URL(left.location!).origin;
    const { leaving, askedPassword } = await throughUpstream(browser, await browser.get(left.location!), issuer, user);
    expect(leaving.status, `${leaving.url} ${leaving.body}`).to.be.within(300, 399);
    const back = await browser.get(new URL(leaving.location!, leaving.url).toString());
    expect(back.status, back.body).to.equal(200);
    const landing = await browser.submit(back);
    expect(landing.status, landing.body).to.equal(302);
    expect(new URL(landing.location!).searchParams.get('ticket')).to.match(/^ST-/);
    return { askedPassword };
  }

  /** Whether the browser still has a tessera session: single sign-on to APP without a form. */
  async function hasSession(browser: Browser): Promise<boolean> {
    const sso = await browser.get(`${logoutNode()}/login?service=${encodeURIComponent(APP)}`);
    return sso.status === 302 && new URL(sso.location!).searchParams.has('ticket');
  }

  it('logout on: after tessera’s logout, the browser goes to the upstream’s end_session_endpoint (ID token hint, way back, state), comes back to /logout and on to the service; the upstream asks for its password again', async () => {
    const browser = new Browser();
    const sessionsBefore = stored?.('delegation.sessions');
    const first = await logIn(browser, WITH_LOGOUT, 'alice');
    expect(first.askedPassword).to.equal(true);
    if (stored) expect(stored('delegation.sessions')).to.equal(sessionsBefore! + 1);

    const logout = await browser.get(`${logoutNode()}/logout?service=${encodeURIComponent(APP)}`);
    expect(logout.status, logout.body).to.equal(302);
    const endSession = new URL(logout.location!);
    expect(`${endSession.origin}${endSession.pathname}`).to.equal(`${setup.upstream.issuer}/session/end`);
    expect(endSession.searchParams.get('post_logout_redirect_uri')).to.equal(`${setup.base}/delegation/logout`);
    expect(endSession.searchParams.get('client_id')).to.equal(UPSTREAM_CLIENT.id);
    const state = endSession.searchParams.get('state');
    expect(state).to.match(/^[A-Za-z0-9_-]{43}$/);
    const hint = claimsOf(endSession.searchParams.get('id_token_hint')!);
    expect(hint['sub']).to.equal('alice');
    expect(hint['aud']).to.equal(UPSTREAM_CLIENT.id);
    expect(hint['iss']).to.equal(setup.upstream.issuer);
    // tessera's logout came first: the session and what it kept for the upstream are gone before the browser leaves.
    expect(await hasSession(browser)).to.equal(false);
    if (stored) expect(stored('delegation.sessions')).to.equal(sessionsBefore);

    // The upstream asks, the user agrees; it sends the browser back with the state, and on it goes to the service.
    const asked = await browser.get(endSession.href);
    expect(asked.status, asked.body).to.equal(200);
    const confirm = /<form id="op.logoutForm" method="post" action="([^"]+)"><input type="hidden" name="xsrf" value="([^"]+)"/.exec(asked.body);
    expect(confirm, asked.body).to.not.equal(null);
    const confirmed = await browser.post(confirm![1]!, { xsrf: confirm![2]!, logout: 'yes' });
    expect(confirmed.status, confirmed.body).to.equal(303);
    const back = new URL(confirmed.location!);
    expect(`${back.origin}${back.pathname}`).to.equal(`${setup.base}/delegation/logout`);
    expect(back.searchParams.get('state')).to.equal(state);
    const returned = await browser.get(back.href.replace(setup.base, logoutNode()));
    expect(returned.status).to.equal(302);
    expect(returned.location).to.equal(`${setup.base}/logout?service=${encodeURIComponent(APP)}`);
    const onward = await browser.get(returned.location!.replace(setup.base, logoutNode()));
    expect(onward.status).to.equal(302);
    expect(onward.location).to.equal(APP);
    // The state is used: coming back again goes to the logged-out page alone.
    const replayed = await browser.get(back.href.replace(setup.base, logoutNode()));
    expect(replayed.location).to.equal(`${setup.base}/logout`);

    // The upstream's session ended: logging in there again asks for the password.
    expect((await logIn(browser, WITH_LOGOUT, 'alice')).askedPassword).to.equal(true);
  });

  it('logout off: tessera’s logout alone, straight to the service or the logged-out page; the upstream’s session stays (no password asked again)', async () => {
    const plain = new Browser();
    await logIn(plain, WITHOUT_LOGOUT, 'carol');
    const logout = await plain.get(`${logoutNode()}/logout?service=${encodeURIComponent(APP)}`);
    expect(logout.status).to.equal(302);
    expect(logout.location, 'logout off: straight to the service').to.equal(APP);
    expect(await hasSession(plain)).to.equal(false);
    expect((await logIn(plain, WITHOUT_LOGOUT, 'carol')).askedPassword).to.equal(false);
    // Without a service, logout off: tessera's logged-out page.
    const page = await plain.get(`${logoutNode()}/logout`);
    expect(page.status).to.equal(200);
    expect(headingOf(page.body)).to.equal('You are logged out');
  });

  it('an upstream whose discovery has no end_session_endpoint: tessera’s own logged-out page (or the service), no error', async () => {
    const browser = new Browser();
    await logIn(browser, NO_END_SESSION, 'dave');
    const page = await browser.get(`${logoutNode()}/logout`);
    expect(page.status, page.body).to.equal(200);
    expect(headingOf(page.body)).to.equal('You are logged out');
    expect(await hasSession(browser)).to.equal(false);
    await logIn(browser, NO_END_SESSION, 'dave');
    const toService = await browser.get(`${logoutNode()}/logout?service=${encodeURIComponent(APP)}`);
    expect(toService.location).to.equal(APP);
    const failures = setup.nodes.flatMap((node) => node.logs).filter((line) => line.includes('delegation.logout.failed'));
    expect(failures).to.deep.equal([]);
  });

  it('what the session kept expires with it: a logout after the session’s lifetime is tessera’s page alone', async () => {
    const browser = new Browser();
    await logIn(browser, WITH_LOGOUT, 'erin');
    setup.clock.advanceSeconds(SESSION_SECONDS);
    try {
      const page = await browser.get(`${logoutNode()}/logout`);
      expect(page.status, page.body).to.equal(200);
      expect(headingOf(page.body)).to.equal('You are logged out');
    } finally {
      setup.clock.advanceSeconds(-SESSION_SECONDS);
    }
  });

  it('an upstream that is down at logout: tessera’s logout is done all the same (the session is gone before the browser leaves)', async () => {
    const browser = new Browser();
    await logIn(browser, WITH_LOGOUT, 'frank');
    await setup.upstream.close();
    // The node read the upstream's discovery already: the browser is sent there, where it finds nobody; tessera's session is gone.
    const logout = await browser.get(`${logoutNode()}/logout`);
    expect(logout.status).to.equal(302);
    expect(logout.location!.startsWith(`${setup.upstream.issuer}/session/end?`)).to.equal(true);
    expect(await hasSession(browser)).to.equal(false);
  });
}
