import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FixedClock } from '@tessera/testkit';
import { describeWithRedis } from '@tessera/testkit/redis';
import { Browser } from '../support/browser.js';
import { APP, form, login, startTessera, type Tessera } from '../support/tessera.js';
import { logIn, servicesWith } from '../modules/login/support.js';

const CAS = 'org.apereo.cas.services';
const STUDENTS = 'https://students.example.org/app';
const CLOSED = 'https://closed.example.org/app';
const HOURS = 'https://hours.example.org/app';
const INTRANET = 'https://intranet.example.org/app';
const CAS3_ONLY = 'https://cas3.example.org/app';
const SAML_ONLY = 'https://saml.example.org/app';
const ACTIVATED = 'https://activated.example.org/app';
const NO_ACCESS = 'https://www.example.org/no-access';
const CLOSED_PAGE = 'https://www.example.org/closed';
const CLOSED_NOW = 'https://www.example.org/closed-now';

const service = (id: number, name: string, host: string, more: Record<string, unknown>) => ({
  '@class': `${CAS}.CasRegisteredService`,
  id,
  name,
  serviceId: `^https://${host}\\.example\\.org/.*`,
  attributeReleasePolicy: { '@class': `${CAS}.ReturnAllAttributeReleasePolicy` },
  ...more,
});

/** Services as Apereo CAS files write them, each with one of the access rules under test. */
const SERVICES = [
  service(21, 'Students only', 'students', {
    accessStrategy: {
      '@class': `${CAS}.DefaultRegisteredServiceAccessStrategy`,
      requiredAttributes: { '@class': 'java.util.HashMap', memberOf: ['java.util.HashSet', ['students']] },
      unauthorizedRedirectUrl: NO_ACCESS,
    },
  }),
  service(22, 'Closed', 'closed', { accessStrategy: { '@class': `${CAS}.DefaultRegisteredServiceAccessStrategy`, enabled: false, unauthorizedRedirectUrl: CLOSED_PAGE } }),
  // 09:00 to 17:00 in Paris on 31 January 2030 (UTC+1 then): the start local to zoneId, the end with its offset.
  service(23, 'Office hours', 'hours', {
    accessStrategy: {
      '@class': `${CAS}.TimeBasedRegisteredServiceAccessStrategy`,
      startingDateTime: '2030-01-31T09:00:00',
      endingDateTime: '2030-01-31T17:00:00.000+01:00',
      zoneId: 'Europe/Paris',
      unauthorizedRedirectUrl: CLOSED_NOW,
    },
  }),
  service(24, 'Intranet', 'intranet', { accessStrategy: { '@class': `${CAS}.HttpRequestRegisteredServiceAccessStrategy`, ipAddress: '^127\\.0\\.0\\.1$', userAgent: 'firefox/' } }),
  service(25, 'CAS 3 only', 'cas3', { supportedProtocols: ['java.util.HashSet', ['CAS30']] }),
  service(26, 'SAML only', 'saml', { supportedProtocols: ['java.util.HashSet', ['SAML1']] }),
  // Students only, but the rule applies only to faculty: everyone else is let in (allowIfInactive).
  service(27, 'Activated', 'activated', {
    accessStrategy: {
      '@class': `${CAS}.DefaultRegisteredServiceAccessStrategy`,
      requiredAttributes: { '@class': 'java.util.HashMap', memberOf: ['java.util.HashSet', ['students']] },
      activationCriteria: {
        '@class': `${CAS}.AttributeBasedRegisteredServiceAccessStrategyActivationCriteria`,
        allowIfInactive: true,
        operator: 'AND',
        requiredAttributes: { '@class': 'java.util.HashMap', memberOf: ['java.util.ArrayList', ['faculty']] },
      },
    },
  }),
];

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
/** 08:59 in Paris, a minute before the office hours open. */
const BEFORE_HOURS = Date.parse('2030-01-31T07:59:00Z');

function behavesAsApereo(storage: () => Record<string, unknown>): void {
  let tessera: Tessera;
  let clock: FixedClock;
  before(async () => {
    clock = new FixedClock(BEFORE_HOURS);
    const keyFile = join(mkdtempSync(join(tmpdir(), 'tessera-access-')), 'login-key.json');
    tessera = await startTessera({ modules: ['rest', 'login'], login: { keyFile }, services: servicesWith(...SERVICES), ...storage() }, { clock });
  });
  after(() => tessera.close());

  const grant = async (url: string, headers: Record<string, string> = {}): Promise<Response> => {
    const tgt = await login(tessera.url);
    const init = form({ service: url });
    return fetch(`${tessera.url}/v1/tickets/${tgt}`, { ...init, headers: { ...(init.headers as Record<string, string>), ...headers } });
  };
  const ticketFor = async (url: string, headers: Record<string, string> = {}): Promise<string> => {
    const response = await grant(url, headers);
    expect(response.status, await response.clone().text()).to.equal(200);
    return response.text();
  };
  /** /p3/serviceValidate (or another CAS path) in JSON: the user, or the failure code. */
  const validated = async (url: string, ticket: string, path = '/p3/serviceValidate', headers: Record<string, string> = {}): Promise<string> => {
    const query = new URLSearchParams({ service: url, ticket, format: 'JSON' });
    const body = (await (await fetch(`${tessera.url}${path}?${query.toString()}`, { headers })).json()) as {
      serviceResponse: { authenticationSuccess?: { user: string }; authenticationFailure?: { code: string } };
    };
    return body.serviceResponse.authenticationSuccess?.user ?? body.serviceResponse.authenticationFailure?.code ?? 'none';
  };
  const samlValidate = async (url: string, ticket: string): Promise<string> => {
    const envelope =
      '<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body>' +
      `<samlp:Request xmlns:samlp="urn:oasis:names:tc:SAML:1.0:protocol" MajorVersion="1" MinorVersion="1" RequestID="_1" IssueInstant="2030-01-31T08:00:00Z"><samlp:AssertionArtifact>${ticket}</samlp:AssertionArtifact></samlp:Request>` +
      '</SOAP-ENV:Body></SOAP-ENV:Envelope>';
    const response = await fetch(`${tessera.url}/samlValidate?TARGET=${encodeURIComponent(url)}`, { method: 'POST', headers: { 'content-type': 'text/xml' }, body: envelope });
    const text = await response.text();
    if (text.includes('"samlp:Success"')) return 'Success';
    return text.includes('"samlp:RequestDenied"') ? 'RequestDenied' : text;
  };

  describe('unauthorizedRedirectUrl', () => {
    it('a browser the required attributes refuse is sent there from the login form and from single sign-on; REST keeps its 401', async () => {
      const browser = new Browser();
      const loggedIn = await logIn(browser, tessera.url, STUDENTS);
      expect([loggedIn.status, loggedIn.location]).to.deep.equal([302, NO_ACCESS]);
      const again = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(STUDENTS)}`);
      expect([again.status, again.location]).to.deep.equal([302, NO_ACCESS]);
      expect((await grant(STUDENTS)).status).to.equal(401);
    });

    it('a disabled service sends the browser there too; REST keeps its 403, and a disabled service without one shows the error page', async () => {
      const visit = await new Browser().get(`${tessera.url}/login?service=${encodeURIComponent(CLOSED)}`);
      expect([visit.status, visit.location]).to.deep.equal([302, CLOSED_PAGE]);
      expect((await grant(CLOSED)).status).to.equal(403);
      const disabled = await new Browser().get(`${tessera.url}/login?service=${encodeURIComponent('https://disabled.example.org/app')}`);
      expect([disabled.status, disabled.location]).to.deep.equal([403, null]);
    });
  });

  describe('TimeBasedRegisteredServiceAccessStrategy', () => {
    it('refuses the service before its start, serves it within its window, and refuses it after its end, validation included', async () => {
      expect((await grant(HOURS)).status).to.equal(403);
      const early = await new Browser().get(`${tessera.url}/login?service=${encodeURIComponent(HOURS)}`);
      expect([early.status, early.location]).to.deep.equal([302, CLOSED_NOW]);

      clock.advanceSeconds(60);
      expect(await validated(HOURS, await ticketFor(HOURS))).to.equal('casuser');

      // 16:59:58 in Paris, then 17:00:01: a ticket granted in the window does not validate after its end.
      clock.advanceSeconds(8 * 3600 - 2);
      const lastTicket = await ticketFor(HOURS);
      clock.advanceSeconds(3);
      expect(await validated(HOURS, lastTicket)).to.equal('UNAUTHORIZED_SERVICE');
      expect((await grant(HOURS)).status).to.equal(403);
    });
  });

  describe('HttpRequestRegisteredServiceAccessStrategy', () => {
    it('serves only a client whose address and User-Agent match, at each request, its validation included', async () => {
      const firefox = { 'user-agent': FIREFOX };
      const ticket = await ticketFor(INTRANET, firefox);
      expect((await grant(INTRANET, { 'user-agent': 'curl/8.5.0' })).status).to.equal(403);
      expect((await grant(INTRANET)).status).to.equal(403);
      expect(await validated(INTRANET, ticket, '/p3/serviceValidate', { 'user-agent': 'curl/8.5.0' })).to.equal('UNAUTHORIZED_SERVICE');
      expect(await validated(INTRANET, await ticketFor(INTRANET, firefox), '/p3/serviceValidate', firefox)).to.equal('casuser');
    });
  });

  describe('activationCriteria', () => {
    it('applies the required attributes only to the principals the criteria name: faculty casuser is refused, alice let in', async () => {
      expect((await grant(ACTIVATED)).status).to.equal(401);
      const alice = await login(tessera.url, 'alice', 'secret');
      const response = await fetch(`${tessera.url}/v1/tickets/${alice}`, form({ service: ACTIVATED }));
      expect(response.status).to.equal(200);
      expect(await validated(ACTIVATED, await response.text())).to.equal('alice');
    });
  });

  describe('supportedProtocols', () => {
    it('a service listing CAS30 validates at the CAS 3 paths only: elsewhere its ticket fails as INVALID_TICKET and is used up', async () => {
      const ticket = await ticketFor(CAS3_ONLY);
      expect(await validated(CAS3_ONLY, ticket, '/serviceValidate')).to.equal('INVALID_TICKET');
      expect(await validated(CAS3_ONLY, ticket, '/p3/serviceValidate')).to.equal('INVALID_TICKET');
      expect(await validated(CAS3_ONLY, await ticketFor(CAS3_ONLY), '/p3/proxyValidate')).to.equal('casuser');
      const cas1 = await fetch(`${tessera.url}/validate?service=${encodeURIComponent(CAS3_ONLY)}&ticket=${await ticketFor(CAS3_ONLY)}`);
      expect(await cas1.text()).to.equal('no\n\n');
      expect(await samlValidate(CAS3_ONLY, await ticketFor(CAS3_ONLY))).to.equal('RequestDenied');
    });

    it('a service listing SAML1 validates at /samlValidate only; a service listing none validates everywhere', async () => {
      expect(await samlValidate(SAML_ONLY, await ticketFor(SAML_ONLY))).to.equal('Success');
      expect(await validated(SAML_ONLY, await ticketFor(SAML_ONLY))).to.equal('INVALID_TICKET');
      expect(await validated(APP, await ticketFor(APP), '/serviceValidate')).to.equal('casuser');
    });
  });
}

describe('Apereo CAS access strategies, activationCriteria and supportedProtocols on the wire', () => {
  describe('on the memory store', () => behavesAsApereo(() => ({})));
  describeWithRedis('on Redis (the definitions round-trip through the store)', (redis) => {
    behavesAsApereo(() => ({ storage: { type: 'redis', redis: { url: redis().url, keyPrefix: 'access:' } } }));
  });
});
