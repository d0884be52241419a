import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { ticketFingerprint } from '@tessera/core';
import { form, login, type Tessera } from '../../support/tessera.js';
import { Browser } from '../../support/browser.js';
import { servicesWith, startLogin, validate } from './support.js';

/** A services' back channel: counts the logout requests it is handling at once, answering each after `delayMs`. */
class CountingReceiver {
  /** The SessionIndex of every request, by path, in the order they arrived. */
  readonly received = new Map<string, string[]>();
  inFlight = 0;
  maxInFlight = 0;
  private readonly server: Server;

  constructor(private readonly delayMs: number) {
    this.server = createServer((request, response) => {
      this.inFlight += 1;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        const index = /<samlp:SessionIndex>([^<]*)<\/samlp:SessionIndex>/.exec(new URLSearchParams(body).get('logoutRequest') ?? '')?.[1] ?? '';
        const path = request.url ?? '';
        this.received.set(path, [...(this.received.get(path) ?? []), index]);
        setTimeout(() => {
          this.inFlight -= 1;
          response.writeHead(200).end();
        }, this.delayMs).unref();
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  to(path: string): readonly string[] {
    return this.received.get(path) ?? [];
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

function optedIn(id: number, host: string, logoutUrl: string): Record<string, unknown> {
  return { '@class': 'org.apereo.cas.services.CasRegisteredService', id, name: host, serviceId: `^https://${host.replace(/\./g, '\\.')}/.*`, logoutType: 'BACK_CHANNEL', logoutUrl };
}

async function eventually<T>(what: string, probe: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Time for a request sent with the ones awaited to have arrived too. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

const MAX_BYTES = 8192;
const APP_ROOT = 'https://app.example.org/';
/** The longest service URL accepted, and one byte more. */
const LONGEST = APP_ROOT + 'a'.repeat(MAX_BYTES - APP_ROOT.length);
const TOO_LONG = `${LONGEST}a`;

// docs/protocol.md §12.4: single logout keeps only sessions services opened, a bounded number of them, and calls back a bounded number at once.
describe('single logout limits: validated tickets only, at most maxPerSession, a bounded number in flight (docs/protocol.md §12.4)', function () {
  this.timeout(60_000);
  const receiver = new CountingReceiver(0);
  const slowReceiver = new CountingReceiver(150);
  let tessera: Tessera;

  before(async () => {
    const [base, slowBase] = await Promise.all([receiver.start(), slowReceiver.start()]);
    tessera = await startLogin({
      modules: ['rest', 'login', 'proxy'],
      services: servicesWith(optedIn(30, 'slo.example.org', `${base}/slo`), optedIn(31, 'slow.example.org', `${slowBase}/slow`)),
      login: { singleLogout: { maxPerSession: 3, concurrency: 2, timeoutMs: 5000 } },
    });
  });
  after(async () => {
    await tessera.close();
    await Promise.all([receiver.close(), slowReceiver.close()]);
  });

  const grant = async (tgt: string, service: string) => {
    const response = await fetch(`${tessera.url}/v1/tickets/${tgt}`, form({ service }));
    expect(response.status, await response.clone().text()).to.equal(200);
    return response.text();
  };
  /** A ticket granted and validated, as a CAS client does once the browser comes back with it. */
  const signOn = async (tgt: string, service: string) => {
    const ticket = await grant(tgt, service);
    expect(await validate(tessera.url, service, ticket)).to.have.property('user', 'casuser');
    return ticket;
  };
  const auditOf = (action: string) => tessera.audit.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['action'] === action);

  it('a ticket granted but never validated gets no logout request', async () => {
    const tgt = await login(tessera.url);
    const validated = await signOn(tgt, 'https://slo.example.org/validated');
    const unvalidated = await grant(tgt, 'https://slo.example.org/unvalidated');
    expect((await fetch(`${tessera.url}/v1/tickets/${tgt}`, { method: 'DELETE' })).status).to.equal(200);
    await eventually('the validated ticket’s logout request', () => (receiver.to('/slo').includes(validated) ? true : undefined));
    await settle();
    expect(receiver.to('/slo')).to.include(validated).and.not.include(unvalidated);
  });

  it('a session keeps the newest maxPerSession services to tell; each one dropped is an event in the log and the audit trail', async () => {
    const tgt = await login(tessera.url);
    const tickets: string[] = [];
    for (let n = 1; n <= 5; n += 1) tickets.push(await signOn(tgt, `https://slo.example.org/app${n}`));
    await fetch(`${tessera.url}/v1/tickets/${tgt}`, { method: 'DELETE' });
    const newest = tickets.slice(2);
    await eventually('the three newest logout requests', () => (newest.every((ticket) => receiver.to('/slo').includes(ticket)) ? true : undefined));
    await settle();
    expect(receiver.to('/slo').filter((ticket) => tickets.includes(ticket))).to.have.members(newest);

    const dropped = auditOf('logout.request.dropped').filter((line) => [0, 1].some((n) => line['ticket'] === ticketFingerprint(tickets[n]!)));
    expect(dropped.map((line) => line['service'])).to.deep.equal(['https://slo.example.org/app1', 'https://slo.example.org/app2']);
    for (const line of dropped) expect(line).to.include({ audit: 'logout', outcome: 'failure', who: 'casuser', limit: 3 });
    expect(tessera.logs.join('\n')).to.include('"event":"logout.request.dropped"');
  });

  it('never has more than `concurrency` logout requests in flight, delivers them all, and answers the logouts first', async () => {
    const sessions = await Promise.all([1, 2, 3, 4].map(() => login(tessera.url)));
    const tickets: string[] = [];
    for (const [s, tgt] of sessions.entries()) for (let n = 1; n <= 3; n += 1) tickets.push(await signOn(tgt, `https://slow.example.org/s${s}/${n}`));
    const answers = await Promise.all(sessions.map((tgt) => fetch(`${tessera.url}/v1/tickets/${tgt}`, { method: 'DELETE' })));
    expect(answers.map((answer) => answer.status)).to.deep.equal([200, 200, 200, 200]);
    expect(slowReceiver.to('/slow').length, 'the logouts answered before the deliveries were done').to.be.below(tickets.length);
    await eventually('every logout request', () => (slowReceiver.to('/slow').length >= tickets.length ? true : undefined));
    expect(slowReceiver.to('/slow')).to.have.members(tickets);
    expect(slowReceiver.maxInFlight).to.be.at.most(2);
    const delivered = await eventually('the delivery events', () => {
      const found = auditOf('logout.request.delivered').filter((line) => String(line['service']).startsWith('https://slow.example.org/'));
      return found.length === tickets.length ? found : undefined;
    });
    for (const line of delivered) expect(line).to.include({ attempts: 1 });
  });

  describe(`a service URL longer than ${MAX_BYTES} bytes is refused with 400 wherever one is accepted`, () => {
    const TOO_LONG_MESSAGE = `a service URL may be at most ${MAX_BYTES} bytes`;

    it('REST: granting (service or TARGET) and logging in with one; the longest allowed still works', async () => {
      const tgt = await login(tessera.url);
      for (const parameter of ['service', 'TARGET']) {
        const refused = await fetch(`${tessera.url}/v1/tickets/${tgt}`, form({ [parameter]: TOO_LONG }));
        expect(refused.status).to.equal(400);
        expect(refused.headers.get('content-type')).to.match(/^text\/plain/);
        expect(await refused.text()).to.equal(`Parameter '${parameter}' is invalid: ${TOO_LONG_MESSAGE}`);
      }
      // Bytes count, not characters: 4109 characters of which most take two bytes.
      const multiByte = APP_ROOT + 'é'.repeat((MAX_BYTES - APP_ROOT.length) / 2 + 1);
      expect(multiByte.length).to.be.below(MAX_BYTES);
      expect((await fetch(`${tessera.url}/v1/tickets/${tgt}`, form({ service: multiByte }))).status).to.equal(400);
      const newLogin = await fetch(`${tessera.url}/v1/tickets`, form({ username: 'casuser', password: 'Mellon', service: TOO_LONG }));
      expect(newLogin.status).to.equal(400);
      expect(newLogin.headers.get('location')).to.equal(null);

      const ticket = await grant(tgt, LONGEST);
      expect(await validate(tessera.url, LONGEST, ticket)).to.have.property('user', 'casuser');
    });

    it('/login: GET and POST answer the error page', async () => {
      const browser = new Browser();
      const page = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(TOO_LONG)}`);
      expect(page.status).to.equal(400);
      expect(page.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(page.body).to.include('Request not understood');
      // The form as shown for a service, sent back with the service swapped: no login, no ticket.
      const shown = await browser.get(`${tessera.url}/login?service=${encodeURIComponent(APP_ROOT)}`);
      const posted = await browser.submit(shown, { username: 'casuser', password: 'Mellon', service: TOO_LONG });
      expect(posted.status).to.equal(400);
      expect(posted.body).to.include('Request not understood');
      expect(posted.setCookies.filter((cookie) => cookie.startsWith('TGC='))).to.deep.equal([]);
    });

    it('validation: an INVALID_REQUEST failure document on every path, and the ticket is not used up', async () => {
      const tgt = await login(tessera.url);
      const ticket = await grant(tgt, 'https://app.example.org/kept');
      const query = `service=${encodeURIComponent(TOO_LONG)}&ticket=${encodeURIComponent(ticket)}`;
      for (const path of ['/serviceValidate', '/proxyValidate', '/p3/serviceValidate', '/p3/proxyValidate']) {
        const xml = await fetch(`${tessera.url}${path}?${query}`);
        expect(xml.status, path).to.equal(400);
        expect(await xml.text(), path).to.include(`<cas:authenticationFailure code="INVALID_REQUEST">Parameter 'service' is invalid: ${TOO_LONG_MESSAGE}</cas:authenticationFailure>`);
      }
      const json = await fetch(`${tessera.url}/p3/serviceValidate?${query}&format=JSON`);
      expect(json.status).to.equal(400);
      expect(((await json.json()) as { serviceResponse: { authenticationFailure: { code: string } } }).serviceResponse.authenticationFailure.code).to.equal('INVALID_REQUEST');
      const cas1 = await fetch(`${tessera.url}/validate?${query}`);
      expect(cas1.status).to.equal(400);
      expect(await cas1.text()).to.equal('no\n\n');
      const envelope =
        '<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body>' +
        '<samlp:Request xmlns:samlp="urn:oasis:names:tc:SAML:1.0:protocol" MajorVersion="1" MinorVersion="1" RequestID="_1" IssueInstant="2026-11-22T00:00:00Z">' +
        `<samlp:AssertionArtifact>${ticket}</samlp:AssertionArtifact></samlp:Request></SOAP-ENV:Body></SOAP-ENV:Envelope>`;
      const saml = await fetch(`${tessera.url}/samlValidate?TARGET=${encodeURIComponent(TOO_LONG)}`, { method: 'POST', headers: { 'content-type': 'text/xml' }, body: envelope });
      expect(saml.status).to.equal(400);
      expect(await saml.text()).to.include('<samlp:StatusCode Value="samlp:Requester"/>').and.include(TOO_LONG_MESSAGE);

      expect(await validate(tessera.url, 'https://app.example.org/kept', ticket), 'the refused requests left the ticket alone').to.have.property('user', 'casuser');
    });

    it('/proxy: an INVALID_REQUEST proxy failure for the target service', async () => {
      const answer = await fetch(`${tessera.url}/proxy?pgt=PGT-1-unknown&targetService=${encodeURIComponent(TOO_LONG)}`);
      expect(answer.status).to.equal(400);
      expect(await answer.text()).to.include('<cas:proxyFailure code="INVALID_REQUEST">');
    });
  });
});
