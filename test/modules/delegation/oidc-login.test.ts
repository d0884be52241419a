import { expect } from 'chai';
import { describeWithRedis } from '@tessera/testkit/redis';
import { Browser, formOf, headingOf, type Visit } from '../../support/browser.js';
import { APP, type Tessera } from '../../support/tessera.js';
import { validate } from '../login/support.js';
import { MovableClock } from '../webauthn/support.js';
import { freePort, startDelegation } from './support.js';
import { startOidcUpstream, throughUpstream, UPSTREAM_CLIENT, type OidcUpstreamServer } from './oidc-upstream.js';

const PROVIDER = 'partner-oidc';
const AUDIT = (lines: readonly string[], action: string) => lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((record) => record['action'] === action);


interface Setup {
  readonly upstream: OidcUpstreamServer;
  /** The nodes, all on one public URL: the browser reaches each at its own origin (a load balancer the test stands for). */
  readonly nodes: readonly Tessera[];
  readonly base: string;
  readonly clock: MovableClock;
}

/** The public base URL of a node as the browser reaches it. */
const nodeBase = (node: Tessera, base: string) => `${base.replace(/:\d+\/cas$/, `:${new URL(node.url).port}/cas`)}`;

// docs/modules/delegation.md: a login through an upstream OpenID provider (node-oidc-provider, started here).
describe('delegation: logging in through an upstream OpenID provider', () => {
  describe('on the memory store', () => oidcLogins(() => ({}), 1));
  describeWithRedis('on Redis, two nodes (leave at one, come back at the other)', (redis) => {
    oidcLogins(() => ({ storage: { type: 'redis', redis: { url: redis().url, keyPrefix: `delegation${Math.random().toString(36).slice(2, 8)}:` } } }), 2);
  });
});

function oidcLogins(storage: () => Record<string, unknown>, nodeCount: number): void {
  let setup: Setup;
  before(async () => {
    const clock = new MovableClock();
    const ports = await Promise.all(Array.from({ length: nodeCount }, () => freePort()));
    const publicPort = ports[0]!;
    const base = `http://localhost:${publicPort}/cas`;
    // Every node names the same callback: the upstream sends the browser back to the public URL.
    const upstream = await startOidcUpstream(`${base}/delegation/callback/${PROVIDER}`);
    const login = { key: Buffer.alloc(32, 7).toString('base64url') };
    // One storage for every node.
    const shared = storage();
    const nodes = await Promise.all(
      ports.map((port) =>
        startDelegation(
          {
            server: { host: '127.0.0.1', port, nodeName: `n${port}`, publicUrl: `http://localhost:${publicPort}` },
            login,
            ...shared,
            delegation: {
              providers: [
                { id: PROVIDER, type: 'oidc', title: 'Partner OIDC', oidc: { issuer: upstream.issuer, clientId: UPSTREAM_CLIENT.id, clientSecret: UPSTREAM_CLIENT.secret }, attributes: { email: 'mail', name: 'displayName', groups: 'memberOf' } },
                { id: 'down', type: 'oidc', title: 'Down', oidc: { issuer: 'http://127.0.0.1:9', clientId: 'tessera' }, timeoutSeconds: 2 },
              ],
            },
          },
          { clock },
        ),
      ),
    );
    setup = { upstream, nodes, base, clock };
  });
  after(async () => {
    for (const node of setup?.nodes ?? []) await node.close();
    await setup?.upstream.close();
  });

  const first = () => setup.nodes[0]!;
  const last = () => setup.nodes[setup.nodes.length - 1]!;

  /** The login page for APP at `node`, its form posted to the start route with the provider. */
  async function leave(browser: Browser, node: Tessera, provider = PROVIDER): Promise<Visit> {
    const base = nodeBase(node, setup.base);
    const page = await browser.get(`${base}/login?service=${encodeURIComponent(APP)}`);
    return browser.post(`${base}/delegation/login`, { ...formOf(page.body).hidden, delegatedProvider: provider });
  }

  /** Leaves at the first node, logs in upstream as `user`: the callback URL the upstream sends the browser to (not yet visited). */
  async function upstreamAnswer(browser: Browser, user = 'alice'): Promise<string> {
    const left = await leave(browser, first());
    expect(left.status, left.body).to.equal(302);
    const answered = (await throughUpstream(browser, await browser.get(left.location!), setup.upstream.issuer, user)).leaving;
    expect(answered.status, `${answered.url} ${answered.status} ${answered.location}`).to.be.within(300, 399);
    return new URL(answered.location!, answered.url).toString();
  }

  /** The callback as the last node answers it (the same node with one). */
  const atLast = (callback: string) => callback.replace(setup.base, nodeBase(last(), setup.base));

  it('clicks the button, logs in upstream, comes back with a session and a ticket naming the upstream user, the provider an attribute', async () => {
    const browser = new Browser();
    const left = await leave(browser, first());
    expect(left.status, left.body).to.equal(302);
    const authorize = new URL(left.location!);
    expect(authorize.origin).to.equal(setup.upstream.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).to.equal('S256');
    expect(authorize.searchParams.get('nonce')).to.have.length.greaterThan(20);
    const callback = await upstreamAnswer(browser);
    expect(new URL(callback).searchParams.get('iss')).to.equal(setup.upstream.issuer);
    const back = await browser.get(atLast(callback));
    expect(back.status, back.body).to.equal(200);
    const landing = await browser.submit(back);
    expect(landing.status, landing.body).to.equal(302);
    const ticket = new URL(landing.location!).searchParams.get('ticket')!;
    const validated = await validate(nodeBase(last(), setup.base), APP, ticket);
    expect(validated.user).to.equal('alice');
    expect(validated.attributes?.['mail']).to.deep.equal(['alice@partner.example']);
    expect(validated.attributes?.['memberOf']).to.deep.equal(['researchers']);
    expect(validated.attributes?.['delegatedProvider']).to.deep.equal([PROVIDER]);
    expect(AUDIT(last().audit, 'delegation.proved').map((record) => record['who'])).to.include('alice');
    // The session is tessera's like any other: single sign-on to another service without the upstream.
    const again = await browser.get(`${nodeBase(last(), setup.base)}/login?service=${encodeURIComponent('https://other.example.org/start')}`);
    expect(again.status).to.equal(302);
    expect(new URL(again.location!).searchParams.get('ticket')).to.match(/^ST-/);
  });

  it('takes a state once: the same answer again is a page with the way back, audited, and no session', async () => {
    const browser = new Browser();
    const callback = await upstreamAnswer(browser, 'bob');
    expect((await browser.get(atLast(callback))).status).to.equal(200);
    const replayed = await browser.get(callback);
    expect(replayed.status).to.equal(400);
    expect(headingOf(replayed.body)).to.equal('The login did not succeed');
    expect(replayed.body).to.include('href="/cas/login"');
    const failures = [...first().audit, ...last().audit].flatMap((line) => AUDIT([line], 'delegation.failed'));
    expect(failures.some((record) => record['who'] === PROVIDER && JSON.stringify(record).includes('"state"'))).to.equal(true);
  });

  it('refuses the answer in another browser than the one that left (the state is bound to its cookie)', async () => {
    const callback = await upstreamAnswer(new Browser(), 'carol');
    const stranger = new Browser();
    const answer = await stranger.get(atLast(callback));
    expect(answer.status).to.equal(400);
    expect(answer.body).to.include('started in another browser');
    expect(await stranger.cookie(setup.base, 'TGC')).to.equal(undefined);
  });

  it('refuses an answer naming another issuer (mix-up), and an upstream error, each a page; nothing is made', async () => {
    const browser = new Browser();
    const callback = new URL(await upstreamAnswer(browser, 'dave'));
    callback.searchParams.set('iss', 'http://127.0.0.1:1/evil');
    const mixedUp = await browser.get(atLast(callback.toString()));
    expect(mixedUp.status, mixedUp.body).to.equal(401);
    expect(mixedUp.body).to.include('could not be trusted');
    expect(await browser.cookie(setup.base, 'TGC')).to.equal(undefined);

    const denied = new Browser();
    const left = await leave(denied, first());
    const state = new URL(left.location!).searchParams.get('state')!;
    const error = await denied.get(`${nodeBase(last(), setup.base)}/delegation/callback/${PROVIDER}?error=access_denied&state=${state}&iss=${encodeURIComponent(setup.upstream.issuer)}`);
    expect(error.status).to.equal(401);
    expect(error.body).to.include('the login was cancelled or refused');
    expect(error.body).to.include(`href="/cas/login?service=${encodeURIComponent(APP)}"`);
  });

  it('refuses an answer that comes back after delegation.stateSeconds (the clock moved on)', async () => {
    const browser = new Browser();
    const callback = await upstreamAnswer(browser, 'erin');
    setup.clock.advanceSeconds(601);
    const late = await browser.get(atLast(callback));
    expect(late.status).to.equal(400);
    expect(late.body).to.include('This login has expired');
  });

  it('answers an upstream that cannot be reached with a page, audited, not a 500', async () => {
    const browser = new Browser();
    const left = await leave(browser, first(), 'down');
    expect(left.status, left.body).to.equal(502);
    expect(left.body).to.include('could not be reached');
    expect(AUDIT(first().audit, 'delegation.failed').some((record) => record['who'] === 'down')).to.equal(true);
  });

  it('refuses a provider the service does not allow, and a proof posted twice', async () => {
    const browser = new Browser();
    const base = nodeBase(first(), setup.base);
    const page = await browser.get(`${base}/login?service=${encodeURIComponent('https://partner-only.example.org/')}`);
    const refused = await browser.post(`${base}/delegation/login`, { ...formOf(page.body).hidden, delegatedProvider: PROVIDER });
    expect(refused.status).to.equal(403);
    expect(refused.body).to.include('not offered for this application');

    const callback = await upstreamAnswer(browser, 'frank');
    const back = await browser.get(atLast(callback));
    const form = formOf(back.body);
    expect((await browser.submit(back)).status).to.equal(302);
    const again = await new Browser().post(new URL(form.action, back.url).toString(), form.hidden);
    expect(again.status).to.not.equal(302);
  });
}
