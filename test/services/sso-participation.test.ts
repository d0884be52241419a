import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FixedClock } from '@tessera/testkit';
import { describeWithRedis } from '@tessera/testkit/redis';
import { Browser, type Visit } from '../support/browser.js';
import { APP, baseConfig, startTessera, type Tessera } from '../support/tessera.js';
import { logIn, validate } from '../modules/login/support.js';

const CAS = 'org.apereo.cas.services';
const MINUTE = 60_000;

/** A service with a singleSignOnParticipationPolicy, as an Apereo file writes it. */
function withPolicy(id: number, host: string, singleSignOnParticipationPolicy: Record<string, unknown>): Record<string, unknown> {
  return { '@class': `${CAS}.CasRegisteredService`, id, name: host, serviceId: `^https://${host}\\.example\\.org/.*`, singleSignOnParticipationPolicy };
}
const chained = (...policies: Record<string, unknown>[]) => ({ '@class': `${CAS}.ChainingRegisteredServiceSingleSignOnParticipationPolicy`, policies: ['java.util.ArrayList', policies] });

const SERVICES = [
  withPolicy(31, 'recent-login', chained({ '@class': `${CAS}.AuthenticationDateRegisteredServiceSingleSignOnParticipationPolicy`, timeUnit: 'MINUTES', timeValue: 5, order: 0 })),
  withPolicy(32, 'recent-use', chained({ '@class': `${CAS}.LastUsedTimeRegisteredServiceSingleSignOnParticipationPolicy`, timeUnit: 'SECONDS', timeValue: '600' })),
  withPolicy(33, 'never', { '@class': `${CAS}.NeverRegisteredServiceSingleSignOnParticipationPolicy` }),
  withPolicy(34, 'default', { '@class': `${CAS}.DefaultRegisteredServiceSingleSignOnParticipationPolicy`, createCookieOnRenewedAuthentication: 'TRUE' }),
];

const url = (host: string) => `https://${host}.example.org/app`;

function behavesAsApereo(storage: () => Record<string, unknown>): void {
  let tessera: Tessera;
  let clock: FixedClock;
  before(async () => {
    clock = new FixedClock(Date.now());
    const keyFile = join(mkdtempSync(join(tmpdir(), 'tessera-sso-')), 'login-key.json');
    const services = [...(baseConfig()['services'] as unknown[]), ...SERVICES];
    tessera = await startTessera({ modules: ['rest', 'login'], login: { keyFile }, services, ...storage() }, { clock });
  });
  after(() => tessera.close());

  const visit = (browser: Browser, service: string) => browser.get(`${tessera.url}/login?service=${encodeURIComponent(service)}`);
  const ticketOf = (visit: Visit) => new URL(visit.location ?? 'https://none.invalid/').searchParams.get('ticket');

  /** Logged in to the service by single sign-on: back to it with a ticket that names casuser. */
  async function expectSingleSignOn(visited: Visit, service: string): Promise<void> {
    expect(visited.status, visited.body).to.equal(302);
    const ticket = ticketOf(visited);
    expect(ticket).to.be.a('string');
    expect(await validate(tessera.url, service, ticket!)).to.include({ user: 'casuser' });
  }

  /** The login form again, naming who is logged in already. */
  function expectForm(visited: Visit): void {
    expect(visited.status).to.equal(200);
    expect(visited.body).to.include('You are logged in as <strong>casuser</strong>');
  }

  it('AuthenticationDate: single sign-on while the login is recent, then the form; a login there gets the ticket, other services keep single sign-on', async () => {
    const browser = new Browser();
    expect((await logIn(browser, tessera.url, APP)).status).to.equal(302);
    await expectSingleSignOn(await visit(browser, url('recent-login')), url('recent-login'));
    clock.advance(4 * MINUTE);
    await expectSingleSignOn(await visit(browser, url('recent-login')), url('recent-login'));
    clock.advance(2 * MINUTE);
    const form = await visit(browser, url('recent-login'));
    expectForm(form);
    const relogged = await browser.submit(form, { username: 'casuser', password: 'Mellon' });
    await expectSingleSignOn(relogged, url('recent-login'));
    await expectSingleSignOn(await visit(browser, APP), APP);
  });

  it('AuthenticationDate: a new login, through the form a service forced or with renew, starts the window again from its own time', async () => {
    const browser = new Browser();
    expect((await logIn(browser, tessera.url, APP)).status).to.equal(302);
    clock.advance(6 * MINUTE);
    const form = await visit(browser, url('recent-login'));
    expectForm(form);
    await expectSingleSignOn(await browser.submit(form, { username: 'casuser', password: 'Mellon' }), url('recent-login'));
    clock.advance(4 * MINUTE);
    await expectSingleSignOn(await visit(browser, url('recent-login')), url('recent-login'));
    clock.advance(2 * MINUTE);
    const renew = await browser.get(`${tessera.url}/login?renew=true&service=${encodeURIComponent(APP)}`);
    expectForm(renew);
    expect((await browser.submit(renew, { username: 'casuser', password: 'Mellon' })).status).to.equal(302);
    clock.advance(4 * MINUTE);
    await expectSingleSignOn(await visit(browser, url('recent-login')), url('recent-login'));
    clock.advance(2 * MINUTE);
    expectForm(await visit(browser, url('recent-login')));
  });

  it('LastUsedTime: single sign-on while the session granted a ticket recently, however old its login', async () => {
    const browser = new Browser();
    expect((await logIn(browser, tessera.url, APP)).status).to.equal(302);
    clock.advance(8 * MINUTE);
    await expectSingleSignOn(await visit(browser, url('recent-use')), url('recent-use'));
    clock.advance(8 * MINUTE);
    await expectSingleSignOn(await visit(browser, url('recent-use')), url('recent-use'));
    clock.advance(11 * MINUTE);
    expectForm(await visit(browser, url('recent-use')));
  });

  it('Never: the form at every visit, right after a login; the default policy changes nothing', async () => {
    const browser = new Browser();
    expect((await logIn(browser, tessera.url, APP)).status).to.equal(302);
    expectForm(await visit(browser, url('never')));
    await expectSingleSignOn(await visit(browser, url('default')), url('default'));
  });
}

describe('singleSignOnParticipationPolicy on the wire (the clock moved)', () => {
  describe('on the memory store', () => behavesAsApereo(() => ({})));
  describeWithRedis('on Redis (the definitions round-trip through the store)', (redis) => {
    behavesAsApereo(() => ({ storage: { type: 'redis', redis: { url: redis().url, keyPrefix: 'sso-participation:' } } }));
  });
});
