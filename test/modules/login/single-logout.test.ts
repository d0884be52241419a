import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { XMLParser } from 'fast-xml-parser';
import { APP, form, login, type Tessera } from '../../support/tessera.js';
import { Browser, ticketOf } from '../../support/browser.js';
import { logIn, servicesWith, startLogin, validate } from './support.js';

/** How the listener answers a path's requests in turn; the last one repeats. `hang` answers only after a second. */
type Answer = 200 | 500 | 'hang';

interface Received {
  readonly path: string;
  readonly contentType: string | undefined;
  readonly logoutRequest: string;
}

/** A service's back channel: records every logout request, answering each path as told. */
class LogoutListener {
  readonly received: Received[] = [];
  private readonly server: Server;
  private readonly answers = new Map<string, Answer[]>();

  constructor() {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        const path = request.url ?? '';
        this.received.push({ path, contentType: request.headers['content-type'], logoutRequest: new URLSearchParams(body).get('logoutRequest') ?? '' });
        const queue = this.answers.get(path) ?? [200];
        const answer = queue.length > 1 ? queue.shift()! : queue[0]!;
        if (answer === 'hang') setTimeout(() => response.writeHead(200).end(), 1000).unref();
        else response.writeHead(answer).end();
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  answer(path: string, ...answers: Answer[]): void {
    this.answers.set(path, answers);
  }

  to(path: string): Received[] {
    return this.received.filter((request) => request.path === path);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

function optedIn(id: number, host: string, logoutUrl?: string): Record<string, unknown> {
  return {
    '@class': 'org.apereo.cas.services.CasRegisteredService',
    id,
    name: host,
    serviceId: `^https://${host.replace(/\./g, '\\.')}/.*`,
    logoutType: 'BACK_CHANNEL',
    ...(logoutUrl !== undefined && { logoutUrl }),
  };
}

async function eventually<T>(what: string, probe: () => T | undefined, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const xml = new XMLParser({ ignoreAttributes: false, removeNSPrefix: false });

// docs/protocol.md §12.4: CAS back-channel single logout.
describe('single logout: opted-in services get a logoutRequest when the session ends (docs/protocol.md §12.4)', function () {
  this.timeout(30_000);
  const listener = new LogoutListener();
  let tessera: Tessera;
  let direct = '';

  before(async () => {
    const base = await listener.start();
    direct = `${base}/direct/app`;
    tessera = await startLogin({
      services: servicesWith(
        optedIn(10, 'slo.example.org', `${base}/slo`),
        // No logoutUrl: the request goes to the service URL itself.
        { ...optedIn(11, 'direct'), serviceId: `^${base.replace(/[.:/]/g, (c) => `\\${c}`)}/direct/.*` },
        optedIn(12, 'flaky.example.org', `${base}/flaky`),
        optedIn(13, 'slow.example.org', `${base}/slow`),
        optedIn(14, 'down.example.org', `${base}/down`),
      ),
      login: { singleLogout: { timeoutMs: 300, attempts: 3, retryDelayMs: 50 } },
    });
  });
  after(async () => {
    await tessera.close();
    await listener.close();
  });

  const auditOf = (action: string) => tessera.audit.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['action'] === action);

  /** Each service validates the ticket it was sent back with, as a CAS client does: only then does it hold a session. */
  const signOn = async (browser: Browser, service: string, first = false) => {
    const ticket = ticketOf((first ? await logIn(browser, tessera.url, service) : await browser.get(`${tessera.url}/login?service=${encodeURIComponent(service)}`)).location)!;
    expect(await validate(tessera.url, service, ticket)).to.have.property('user', 'casuser');
    return ticket;
  };

  it('logout: each opted-in service that validated a ticket receives one LogoutRequest naming it; the others nothing', async () => {
    const browser = new Browser();
    const slo = await signOn(browser, 'https://slo.example.org/app', true);
    const straight = await signOn(browser, direct);
    await signOn(browser, APP);
    const before = listener.received.length;

    const out = await browser.get(`${tessera.url}/logout`);
    expect(out.status).to.equal(200);
    await eventually('two logout requests', () => (listener.received.length >= before + 2 ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(listener.received.length).to.equal(before + 2);

    const [toSlo] = listener.to('/slo');
    expect(toSlo?.contentType).to.equal('application/x-www-form-urlencoded');
    const request = xml.parse(toSlo!.logoutRequest) as Record<string, Record<string, unknown>>;
    const logoutRequest = request['samlp:LogoutRequest']!;
    expect(logoutRequest['@_xmlns:samlp']).to.equal('urn:oasis:names:tc:SAML:2.0:protocol');
    expect(logoutRequest['@_Version']).to.equal('2.0');
    expect(logoutRequest['@_ID']).to.match(/^LR-[\w-]+$/);
    expect(logoutRequest['@_IssueInstant']).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(logoutRequest['samlp:SessionIndex']).to.equal(slo);
    // Without logoutUrl, the request goes to the URL the ticket was issued for.
    const [toDirect] = listener.to('/direct/app');
    expect(toDirect?.logoutRequest).to.include(`<samlp:SessionIndex>${straight}</samlp:SessionIndex>`);

    const delivered = await eventually('the delivery events', () => {
      const found = auditOf('logout.request.delivered').filter((line) => line['trigger'] === 'logout' && [slo, straight].some((id) => String(line['ticket']).startsWith(id.split('-').slice(0, 2).join('-'))));
      return found.length === 2 ? found : undefined;
    });
    for (const line of delivered) {
      expect(line).to.include({ audit: 'logout', outcome: 'success', who: 'casuser', attempts: 1 });
      expect(JSON.stringify(line)).to.not.include(slo).and.not.include(straight);
    }
  });

  it('a REST logout (DELETE of the TGT) tells the services too', async () => {
    const tgt = await login(tessera.url);
    const ticket = await (await fetch(`${tessera.url}/v1/tickets/${tgt}`, form({ service: 'https://slo.example.org/rest' }))).text();
    await validate(tessera.url, 'https://slo.example.org/rest', ticket);
    await fetch(`${tessera.url}/v1/tickets/${tgt}`, { method: 'DELETE' });
    await eventually('the logout request', () => listener.to('/slo').find((request) => request.logoutRequest.includes(ticket)));
  });

  it('retries a service that fails or is too slow, reports one that stays down, and never holds up the logout', async () => {
    listener.answer('/flaky', 500, 200);
    listener.answer('/slow', 'hang', 200);
    listener.answer('/down', 500);
    const browser = new Browser();
    await signOn(browser, 'https://flaky.example.org/a', true);
    for (const service of ['https://slow.example.org/b', 'https://down.example.org/c']) await signOn(browser, service);

    const started = Date.now();
    const out = await browser.get(`${tessera.url}/logout`);
    expect(out.status).to.equal(200);
    expect(Date.now() - started, 'the logout waits for no service').to.be.below(250);

    const outcome = (service: string) => [...auditOf('logout.request.delivered'), ...auditOf('logout.request.failed')].find((line) => line['service'] === service);
    const flaky = await eventually('flaky', () => outcome('https://flaky.example.org/a'));
    expect(flaky).to.include({ action: 'logout.request.delivered', attempts: 2 });
    const slow = await eventually('slow', () => outcome('https://slow.example.org/b'));
    expect(slow).to.include({ action: 'logout.request.delivered', attempts: 2 });
    const down = await eventually('down', () => outcome('https://down.example.org/c'));
    expect(down).to.include({ action: 'logout.request.failed', outcome: 'failure', attempts: 3, reason: 'HTTP 500' });
    expect(listener.to('/down')).to.have.length(3);
    expect(tessera.logs.join('\n')).to.include('"event":"logout.request.failed"');
  });

  it('reports a timeout when every attempt is too slow', async () => {
    listener.answer('/slow', 'hang');
    const browser = new Browser();
    await signOn(browser, 'https://slow.example.org/d', true);
    await browser.get(`${tessera.url}/logout`);
    const failed = await eventually('the failure', () => auditOf('logout.request.failed').find((line) => line['service'] === 'https://slow.example.org/d'));
    expect(failed).to.include({ attempts: 3, reason: 'timeout' });
  });
});
