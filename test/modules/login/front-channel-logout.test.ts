import { hash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateSync } from 'node:zlib';
import { expect } from 'chai';
import { describeWithRedis } from '@tessera/testkit/redis';
import type { Tessera } from '../../support/tessera.js';
import { Browser, ticketOf, type Visit } from '../../support/browser.js';
import { launchChromium, skipUnlessChromium, type HeadlessChromium } from '../../support/chromium.js';
import { logIn, servicesWith, startLogin, validate } from './support.js';

/** The application: its pages, and every request it got (the logout calls among them). */
class App {
  readonly received: URL[] = [];
  private readonly server: Server;
  base = '';
  /** Where it validates the tickets it is sent back with, as a CAS client does. */
  cas = '';

  constructor() {
    this.server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', this.base);
      this.received.push(url);
      const ticket = url.searchParams.get('ticket');
      const page = () => response.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html lang="en"><title>App</title><main><h1>App</h1></main></html>');
      if (ticket === null) page();
      else void validate(this.cas, `${this.base}/app/home`, ticket).then(page, page);
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  logoutCalls(): URL[] {
    return this.received.filter((url) => url.pathname === '/app/logout');
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The SessionIndex of a front-channel `logoutRequest`: base64 of the deflated (zlib) SAML LogoutRequest. */
function sessionIndexOf(logoutRequest: string | null): string | undefined {
  const xml = inflateSync(Buffer.from(logoutRequest ?? '', 'base64')).toString('utf8');
  expect(xml).to.match(/^<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="LR-[\w-]+" Version="2.0" IssueInstant="[\dT:-]+Z">/);
  return /<samlp:SessionIndex>([^<]*)<\/samlp:SessionIndex>/.exec(xml)?.[1];
}

const imagesOf = (body: string) => [...body.matchAll(/<img class="logout-call" src="([^"]+)"/g)].map((match) => new URL(match[1]!.replace(/&amp;/g, '&')));

/**
 * The browser logs in to the app, which validates its ticket, then opens the logout page: the page
 * (200) lists one call, the app's logout URL with a logoutRequest naming that ticket.
 */
async function logoutPageAfterOneLogin(browser: Browser, app: App, base: string): Promise<Visit> {
  const ticket = ticketOf((await logIn(browser, base, `${app.base}/app/home`)).location)!;
  expect((await validate(base, `${app.base}/app/home`, ticket)).user).to.equal('casuser');
  const page = await browser.get(`${base}/logout?service=${encodeURIComponent(`${app.base}/app/bye`)}`);
  expect(page.status).to.equal(200);
  const [call, ...more] = imagesOf(page.body);
  expect(more).to.deep.equal([]);
  expect(`${call!.origin}${call!.pathname}`).to.equal(`${app.base}/app/logout`);
  expect(sessionIndexOf(call!.searchParams.get('logoutRequest'))).to.equal(ticket);
  return page;
}

/**
 * The application and a tessera (on `storage`) whose service 30 logs out through the front channel:
 * started before the suite's tests, closed after; the tessera's URL once started.
 */
function deploy(app: App, storage: () => Record<string, unknown>): { readonly url: string } {
  let tessera: Tessera | undefined;
  before(async () => {
    await app.start();
    const local = app.base.replace(/[.:/]/g, (char) => `\\${char}`);
    tessera = await startLogin({
      ...storage(),
      services: servicesWith({ '@class': 'org.apereo.cas.services.CasRegisteredService', id: 30, name: 'Front', serviceId: `^${local}/app/.*`, logoutType: 'FRONT_CHANNEL', logoutUrl: `${app.base}/app/logout` }),
    });
    app.cas = tessera.url;
  });
  after(async () => {
    await tessera?.close();
    await app.close();
  });
  return {
    get url(): string {
      return tessera!.url;
    },
  };
}

// docs/protocol.md §12.4: front-channel single logout, through the browser on the logout page.
describe('front-channel single logout: the logout page makes the browser call each FRONT_CHANNEL service (docs/protocol.md §12.4)', function () {
  this.timeout(60_000);
  const app = new App();
  const tessera = deploy(app, () => ({}));

  it('lists a call with the logoutRequest naming the ticket the service validated, allowed by the CSP, and goes on to a registered service by its hashed script', async () => {
    const browser = new Browser();
    const page = await logoutPageAfterOneLogin(browser, app, tessera.url);
    expect(page.body).to.include(`<a id="continue" href="${app.base}/app/bye">Continue</a>`);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).to.include(`img-src 'self' https: data: ${app.base};`).and.not.include('unsafe-inline');
    const script = /<script>([\s\S]*?)<\/script>/.exec(page.body)![1]!;
    expect(csp).to.include(`script-src 'sha256-${hash('sha256', script, 'base64')}';`);

    const again = await browser.get(`${tessera.url}/logout?service=${encodeURIComponent(`${app.base}/app/bye`)}`);
    expect(again.status, 'no session left: straight on to the service').to.equal(302);
  });

  it('without a registered target the page calls the services and stays, with no script', async () => {
    const browser = new Browser();
    const ticket = ticketOf((await logIn(browser, tessera.url, `${app.base}/app/home`)).location)!;
    await validate(tessera.url, `${app.base}/app/home`, ticket);
    const page = await browser.get(`${tessera.url}/logout?service=${encodeURIComponent('https://unregistered.example.com/')}`);
    expect(page.status).to.equal(200);
    expect(imagesOf(page.body)).to.have.length(1);
    expect(page.body).to.not.include('<script>').and.not.include('id="continue"');
    expect(page.headers.get('content-security-policy')).to.include("script-src 'none'");
  });

  it('a ticket the service never validated opened no session there: nobody is called', async () => {
    const browser = new Browser();
    await logIn(browser, tessera.url, `${app.base}/app/home`);
    const page = await browser.get(`${tessera.url}/logout`);
    expect(imagesOf(page.body)).to.deep.equal([]);
  });

  describe('in headless Chromium, the page’s own CSP enforced', () => {
    let browser: HeadlessChromium | undefined;
    before(async function () {
      skipUnlessChromium(this, 'front-channel logout in Chromium');
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
    });

    it('logs in, and on logout the browser calls the service with its logoutRequest, then goes on to the target', async () => {
      const page = await browser!.context.newPage();
      await page.goto(`${tessera.url}/login?service=${encodeURIComponent(`${app.base}/app/home`)}`);
      await page.fill('#username', 'casuser');
      await page.fill('#password', 'Mellon');
      await Promise.all([page.waitForURL(`${app.base}/app/home?ticket=*`), page.click('button[type=submit]')]);
      const ticket = new URL(page.url()).searchParams.get('ticket');
      const before = app.logoutCalls().length;
      await page.goto(`${tessera.url}/logout?service=${encodeURIComponent(`${app.base}/app/bye`)}`);
      await page.waitForURL(`${app.base}/app/bye`);
      const calls = app.logoutCalls().slice(before);
      expect(calls).to.have.length(1);
      expect(sessionIndexOf(calls[0]!.searchParams.get('logoutRequest'))).to.equal(ticket);
    });
  });
});

// The sessions a front-channel logout calls are kept in the store: on Redis, the same page from there.
describeWithRedis('front-channel single logout on Redis (the service sessions in the store)', (redis) => {
  const app = new App();
  const tessera = deploy(app, () => ({ storage: { type: 'redis', redis: { url: redis().url, keyPrefix: 'front-channel:' } } }));

  it('lists a call with the logoutRequest naming the validated ticket, and the session is gone after', async () => {
    const browser = new Browser();
    await logoutPageAfterOneLogin(browser, app, tessera.url);
    const again = await browser.get(`${tessera.url}/logout?service=${encodeURIComponent(`${app.base}/app/bye`)}`);
    expect(again.status, 'no session left: straight on to the service').to.equal(302);
  });
});
