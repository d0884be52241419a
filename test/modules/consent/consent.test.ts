import { expect } from 'chai';
import { FixedClock } from '@tessera/testkit';
import { describeWithRedis } from '@tessera/testkit/redis';
import { Browser, headingOf, ticketOf, type Visit } from '../../support/browser.js';
import { form, login, type Tessera } from '../../support/tessera.js';
import { postService, REGISTRATION } from '../../services/support.js';
import { logIn, servicesWith, startLogin, validate } from '../login/support.js';

const CAS = 'org.apereo.cas.services';
const MINUTE = 60_000;
const CONSENT_HEADING = 'Share your information?';

/** A service releasing mail and memberOf, its memberOf values filtered by `memberOf` (a pattern), and a consent policy. */
function service(id: number, host: string, memberOf: string, consentPolicy?: Record<string, unknown>): Record<string, unknown> {
  return {
    '@class': `${CAS}.CasRegisteredService`,
    id,
    name: host,
    serviceId: `^https://${host}\\.example\\.org/.*`,
    attributeReleasePolicy: {
      '@class': `${CAS}.ReturnAllowedAttributeReleasePolicy`,
      allowedAttributes: ['java.util.ArrayList', ['mail', 'memberOf']],
      attributeFilter: { '@class': `${CAS}.support.RegisteredServiceMappedRegexAttributeFilter`, patterns: { '@class': 'java.util.TreeMap', memberOf: memberOf }, completeMatch: true },
      ...(consentPolicy && { consentPolicy: { '@class': `${CAS}.consent.DefaultRegisteredServiceConsentPolicy`, ...consentPolicy } }),
    },
  };
}

const url = (host: string) => `https://${host}.example.org/app`;
const BOTH_GROUPS = 'staff|faculty';
const SERVICES = [
  service(40, 'mail', BOTH_GROUPS),
  service(41, 'names', BOTH_GROUPS),
  service(42, 'values', BOTH_GROUPS),
  service(43, 'reminded', BOTH_GROUPS),
  service(44, 'never', BOTH_GROUPS, { status: 'FALSE' }),
  service(45, 'deny', BOTH_GROUPS),
  service(46, 'forged', BOTH_GROUPS),
  service(47, 'rest', BOTH_GROUPS),
  service(48, 'sso', BOTH_GROUPS),
];

// docs/modules/consent.md: the consent page before a browser's service ticket, as CAS's attribute consent.
describe('consent to attribute release (the consent module)', () => {
  describe('on the memory store', () => asksForConsent(() => ({})));
  describeWithRedis('on Redis (the decisions and the held tickets in the store)', (redis) => {
    asksForConsent(() => ({ storage: { type: 'redis', redis: { url: redis().url, keyPrefix: `consent${Date.now()}:` } } }));
  });
});

function asksForConsent(storage: () => Record<string, unknown>): void {
  let tessera: Tessera;
  let clock: FixedClock;
  before(async () => {
    clock = new FixedClock(Date.now());
    tessera = await startLogin({
      ...storage(),
      modules: ['rest', 'services', 'login', 'consent'],
      registration: REGISTRATION,
      consent: { reminder: 10, reminderTimeUnit: 'MINUTES' },
      services: servicesWith(...SERVICES),
    }, { clock });
  });
  after(() => tessera.close());

  const visit = (browser: Browser, host: string) => browser.get(`${tessera.url}/login?service=${encodeURIComponent(url(host))}`);
  const auditOf = (action: string) => tessera.audit.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['action'] === action);

  /** The consent page: its heading, and the attribute names and values it lists. */
  function expectConsentPage(page: Visit): void {
    expect(page.status, page.body).to.equal(200);
    expect(headingOf(page.body)).to.equal(CONSENT_HEADING);
    expect(page.body).to.include('<dt>mail</dt><dd>casuser@example.org</dd>');
    expect(page.body).to.include('<dt>memberOf</dt><dd>staff</dd><dd>faculty</dd>');
    expect(page.headers.get('content-security-policy')).to.include("script-src 'none'");
    expect(page.headers.get('cache-control')).to.equal('no-store');
  }

  /** Back to the service with a ticket that validates with the service's attributes. */
  async function expectTicket(landing: Visit, host: string, memberOf = ['staff', 'faculty']): Promise<void> {
    expect(landing.status, landing.body).to.equal(302);
    const ticket = ticketOf(landing.location);
    expect(ticket).to.match(/^ST-/);
    const validated = await validate(tessera.url, url(host), ticket!);
    expect(validated.user).to.equal('casuser');
    expect(validated.attributes?.['mail']).to.deep.equal(['casuser@example.org']);
    expect(validated.attributes?.['memberOf']).to.deep.equal(memberOf);
  }

  it('asks after a new login; Allow issues the ticket, which releases the attributes; the next single sign-on does not ask', async () => {
    const browser = new Browser();
    const page = await logIn(browser, tessera.url, url('mail'));
    expectConsentPage(page);
    expect(page.body, 'the user chooses when to be asked again').to.include('value="ATTRIBUTE_VALUE"');
    expect(await browser.cookie(tessera.url, 'TGC'), 'the session is made before the page, as in CAS').to.be.a('string');
    await expectTicket(await browser.submit(page, { decision: 'allow' }), 'mail');
    await expectTicket(await visit(browser, 'mail'), 'mail');
    const given = auditOf('consent.given');
    expect(given.at(-1)).to.deep.include({ audit: 'release', outcome: 'success', who: 'casuser', service: url('mail'), option: 'ATTRIBUTE_NAME', attributes: ['mail', 'memberOf'] });
    expect([...tessera.logs, ...tessera.audit].join('\n'), 'no attribute value in the log or the audit trail').to.not.include('casuser@example.org');
  });

  it('asks on single sign-on too: a session asking for a ticket for a service the user has not agreed to', async () => {
    const browser = new Browser();
    await expectTicket(await logIn(browser, tessera.url, url('never')), 'never');
    const page = await visit(browser, 'sso');
    expectConsentPage(page);
    await expectTicket(await browser.submit(page, { decision: 'allow' }), 'sso');
    await expectTicket(await visit(browser, 'sso'), 'sso');
  });

  it('Deny: no ticket, the user stays here (logged in), and the next visit asks again', async () => {
    const browser = new Browser();
    const page = await logIn(browser, tessera.url, url('deny'));
    expectConsentPage(page);
    const denied = await browser.submit(page, { decision: 'deny' });
    expect(denied.status).to.equal(200);
    expect(denied.location).to.equal(null);
    expect(headingOf(denied.body)).to.equal('Nothing was shared');
    expect(denied.body).to.not.include('ST-');
    expect(auditOf('consent.denied').at(-1)).to.deep.include({ audit: 'release', outcome: 'failure', who: 'casuser', service: url('deny') });
    expectConsentPage(await visit(browser, 'deny'));
    await expectTicket(await visit(browser, 'never'), 'never');
  });

  it('a service whose consentPolicy says status FALSE never asks', async () => {
    await expectTicket(await logIn(new Browser(), tessera.url, url('never')), 'never');
  });

  it('a changed attribute value asks again with ATTRIBUTE_VALUE, not with ATTRIBUTE_NAME', async () => {
    const browser = new Browser();
    const first = await logIn(browser, tessera.url, url('names'));
    await expectTicket(await browser.submit(first, { decision: 'allow', option: 'ATTRIBUTE_NAME' }), 'names');
    const second = await visit(browser, 'values');
    expectConsentPage(second);
    await expectTicket(await browser.submit(second, { decision: 'allow', option: 'ATTRIBUTE_VALUE' }), 'values');
    expect(auditOf('consent.given').at(-1)).to.deep.include({ option: 'ATTRIBUTE_VALUE' });
    // The services now release memberOf staff only: the same names, other values.
    for (const changed of [service(41, 'names', 'staff'), service(42, 'values', 'staff')]) expect((await postService(tessera.url, changed)).status).to.be.oneOf([200, 201]);
    await expectTicket(await visit(browser, 'names'), 'names', ['staff']);
    const again = await visit(browser, 'values');
    expect(headingOf(again.body)).to.equal(CONSENT_HEADING);
    expect(again.body).to.include('<dt>memberOf</dt><dd>staff</dd></dl>');
    await expectTicket(await browser.submit(again, { decision: 'allow', option: 'ATTRIBUTE_VALUE' }), 'values', ['staff']);
    await expectTicket(await visit(browser, 'values'), 'values', ['staff']);
  });

  it('the reminder asks again once its time is past (the clock moved)', async () => {
    const browser = new Browser();
    const page = await logIn(browser, tessera.url, url('reminded'));
    await expectTicket(await browser.submit(page, { decision: 'allow' }), 'reminded');
    clock.advance(9 * MINUTE);
    await expectTicket(await visit(browser, 'reminded'), 'reminded');
    clock.advance(2 * MINUTE);
    expectConsentPage(await visit(browser, 'reminded'));
  });

  it('a missing or forged form token is refused: the login form, no ticket, no decision', async () => {
    const browser = new Browser();
    const page = await logIn(browser, tessera.url, url('forged'));
    expectConsentPage(page);
    const missing = await browser.submit(page, { decision: 'allow', formToken: '' });
    expect(missing.status).to.equal(403);
    expect(missing.location).to.equal(null);
    const forged = await browser.submit(page, { decision: 'allow', formToken: 'forged.token' });
    expect(forged.status).to.equal(403);
    expect(forged.location).to.equal(null);
    expectConsentPage(await visit(browser, 'forged'));
  });

  it('REST and validation never ask: POST /v1/tickets/{tgt} gets the ST of a service that asks in the browser', async () => {
    const granted = await fetch(`${tessera.url}/v1/tickets/${await login(tessera.url)}`, form({ service: url('rest') }));
    expect(granted.status).to.equal(200);
    const validated = await validate(tessera.url, url('rest'), await granted.text());
    expect(validated.attributes?.['memberOf']).to.deep.equal(['staff', 'faculty']);
  });
}

describe('the consent module off: a consentPolicy is read and kept, and nobody is asked', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startLogin({ services: servicesWith(service(40, 'mail', BOTH_GROUPS, { status: 'TRUE' })) });
  });
  after(() => tessera.close());

  it('a new login goes back to the service with its ticket; POST /login/step does not exist', async () => {
    const browser = new Browser();
    const landing = await logIn(browser, tessera.url, url('mail'));
    expect(landing.status).to.equal(302);
    expect(ticketOf(landing.location)).to.match(/^ST-/);
    expect((await browser.post(`${tessera.url}/login/step`, { decision: 'allow' })).status).to.equal(404);
  });
});
