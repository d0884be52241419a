import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FixedClock } from '@tessera/testkit';
import { describeWithRedis } from '@tessera/testkit/redis';
import { Browser, type Visit } from '../support/browser.js';
import { APP, baseConfig, form, login, serviceTicket, startTessera, type Tessera } from '../support/tessera.js';
import { logIn, validate } from '../modules/login/support.js';

const CAS = 'org.apereo.cas.services';
const SECOND = 1000;

const SHORT = 'https://short.example.org/app';
const BRIEF = 'https://brief.example.org/app';

/** `short`: sessions of a minute for its logins, STs of 30 s; `brief`: STs of 2 s; `twice`: STs of two validations within 20 s. As Apereo files write them. */
const SERVICES = [
  {
    '@class': `${CAS}.CasRegisteredService`,
    id: 41,
    name: 'short',
    serviceId: '^https://short\\.example\\.org/.*',
    ticketGrantingTicketExpirationPolicy: { '@class': `${CAS}.DefaultRegisteredServiceTicketGrantingTicketExpirationPolicy`, maxTimeToLiveInSeconds: 60 },
    serviceTicketExpirationPolicy: { '@class': `${CAS}.DefaultRegisteredServiceServiceTicketExpirationPolicy`, numberOfUses: 1, timeToLive: 'PT30S' },
  },
  {
    '@class': `${CAS}.CasRegisteredService`,
    id: 42,
    name: 'brief',
    serviceId: '^https://brief\\.example\\.org/.*',
    serviceTicketExpirationPolicy: { '@class': `${CAS}.DefaultRegisteredServiceServiceTicketExpirationPolicy`, numberOfUses: '1', timeToLive: '2' },
  },
  {
    '@class': `${CAS}.CasRegisteredService`,
    id: 43,
    name: 'twice',
    serviceId: '^https://twice\\.example\\.org/.*',
    serviceTicketExpirationPolicy: { '@class': `${CAS}.DefaultRegisteredServiceServiceTicketExpirationPolicy`, numberOfUses: 2, timeToLive: 'PT20S' },
  },
];
const TWICE = 'https://twice.example.org/app';

function behavesAsApereo(storage: () => Record<string, unknown>): void {
  let tessera: Tessera;
  let clock: FixedClock;
  before(async () => {
    clock = new FixedClock(Date.now());
    const keyFile = join(mkdtempSync(join(tmpdir(), 'tessera-expiry-')), 'login-key.json');
    const services = [...(baseConfig()['services'] as unknown[]), ...SERVICES];
    tessera = await startTessera({ modules: ['rest', 'login'], login: { keyFile }, services, ...storage() }, { clock });
  });
  after(() => tessera.close());

  const visit = (browser: Browser, service: string) => browser.get(`${tessera.url}/login?service=${encodeURIComponent(service)}`);
  const ticketOf = (visited: Visit) => new URL(visited.location ?? 'https://none.invalid/').searchParams.get('ticket') ?? '';
  /** A REST login for `service` (Apereo applies the service's session lifetime only when one is named). */
  const restLoginFor = async (service: string) => {
    const response = await fetch(`${tessera.url}/v1/tickets`, { ...form({ username: 'casuser', password: 'Mellon', service }), headers: { ...form({}).headers, accept: 'text/plain' } });
    expect(response.status).to.equal(201);
    return response.text();
  };
  const grantStatus = async (tgt: string, service = APP) => (await fetch(`${tessera.url}/v1/tickets/${tgt}`, form({ service }))).status;

  async function expectSingleSignOn(visited: Visit, service: string): Promise<void> {
    expect(visited.status, visited.body).to.equal(302);
    expect(await validate(tessera.url, service, ticketOf(visited))).to.include({ user: 'casuser' });
  }

  it("a browser session begun by a login for a service of its own lifetime ends then, however active; another browser's session lives on", async () => {
    const own = new Browser();
    const other = new Browser();
    await expectSingleSignOn(await logIn(own, tessera.url, SHORT), SHORT);
    await expectSingleSignOn(await logIn(other, tessera.url, APP), APP);
    clock.advance(59 * SECOND);
    // Active to the last: single sign-on works, and does not push the end further.
    await expectSingleSignOn(await visit(own, APP), APP);
    clock.advance(1 * SECOND);
    const after = await visit(own, APP);
    expect(after.status).to.equal(200);
    expect(after.body, 'the session is gone: the plain form').to.not.include('You are logged in as');
    await expectSingleSignOn(await visit(other, APP), APP);
  });

  it('single sign-on into that service takes only a session younger than its lifetime: then the form, naming who is logged in', async () => {
    const browser = new Browser();
    await expectSingleSignOn(await logIn(browser, tessera.url, APP), APP);
    clock.advance(60 * SECOND);
    await expectSingleSignOn(await visit(browser, SHORT), SHORT);
    clock.advance(1 * SECOND);
    const form = await visit(browser, SHORT);
    expect(form.status).to.equal(200);
    expect(form.body).to.include('You are logged in as <strong>casuser</strong>');
    await expectSingleSignOn(await browser.submit(form, { username: 'casuser', password: 'Mellon' }), SHORT);
    await expectSingleSignOn(await visit(browser, APP), APP);
  });

  it('REST: a TGT asked for with the service parameter takes its lifetime; one without, tickets.tgt.*', async () => {
    const own = await restLoginFor(SHORT);
    const plain = await login(tessera.url);
    clock.advance(30 * SECOND);
    expect(await grantStatus(own)).to.equal(200);
    clock.advance(30 * SECOND);
    expect(await grantStatus(own)).to.equal(404);
    expect(await grantStatus(plain)).to.equal(200);
  });

  it("an ST lives as long as its service's timeToLive says, other services' as tickets.st.timeToLiveSeconds; each validates once", async () => {
    const tgt = await login(tessera.url);
    const [brief, app, short] = [await serviceTicket(tessera.url, tgt, BRIEF), await serviceTicket(tessera.url, tgt, APP), await serviceTicket(tessera.url, tgt, SHORT)];
    const briefLater = await serviceTicket(tessera.url, tgt, BRIEF);
    clock.advance(2 * SECOND - 1);
    expect(await validate(tessera.url, BRIEF, briefLater)).to.include({ user: 'casuser' });
    expect(await validate(tessera.url, BRIEF, briefLater), 'numberOfUses 1: once').to.deep.equal({ code: 'INVALID_TICKET' });
    clock.advance(1);
    expect(await validate(tessera.url, BRIEF, brief)).to.deep.equal({ code: 'INVALID_TICKET' });
    expect(await validate(tessera.url, APP, app)).to.include({ user: 'casuser' });
    clock.advance(25 * SECOND);
    expect(await validate(tessera.url, SHORT, short)).to.include({ user: 'casuser' });
    const shortLate = await serviceTicket(tessera.url, tgt, SHORT);
    clock.advance(30 * SECOND);
    expect(await validate(tessera.url, SHORT, shortLate)).to.deep.equal({ code: 'INVALID_TICKET' });
  });

  it('numberOfUses 2: an ST validates twice, then not; of two concurrent validations of its last use exactly one succeeds; its time to live still ends it', async () => {
    const tgt = await login(tessera.url);
    const st = await serviceTicket(tessera.url, tgt, TWICE);
    expect(await validate(tessera.url, TWICE, st)).to.include({ user: 'casuser' });
    expect(await validate(tessera.url, TWICE, st)).to.include({ user: 'casuser' });
    expect(await validate(tessera.url, TWICE, st)).to.deep.equal({ code: 'INVALID_TICKET' });

    const raced = await serviceTicket(tessera.url, tgt, TWICE);
    expect(await validate(tessera.url, TWICE, raced)).to.include({ user: 'casuser' });
    const answers = await Promise.all([validate(tessera.url, TWICE, raced), validate(tessera.url, TWICE, raced)]);
    expect(answers.filter((answer) => answer.user === 'casuser')).to.have.length(1);
    expect(answers.filter((answer) => answer.code === 'INVALID_TICKET')).to.have.length(1);

    const late = await serviceTicket(tessera.url, tgt, TWICE);
    expect(await validate(tessera.url, TWICE, late)).to.include({ user: 'casuser' });
    clock.advance(20 * SECOND);
    expect(await validate(tessera.url, TWICE, late)).to.deep.equal({ code: 'INVALID_TICKET' });
  });
}

describe("a service's own ticket lifetimes on the wire (the clock moved)", () => {
  describe('on the memory store', () => behavesAsApereo(() => ({})));
  describeWithRedis('on Redis (the definitions and tickets round-trip through the store)', (redis) => {
    behavesAsApereo(() => ({ storage: { type: 'redis', redis: { url: redis().url, keyPrefix: 'ticket-expiration:' } } }));
  });
});
