import { expect } from 'chai';
import { APACHE_PROBES, startCasApache, type CasApache } from './apache.js';
import { startCasFixture, type CasFixture } from './cas-fixture.js';
import { freePort } from '@tessera/testkit';
import { skipUnlessInstalled } from './harness.js';

// docs/protocol.md §3, checked by Apache mod_auth_cas 1.2 (CAS 2 /serviceValidate over tessera's own HTTPS listener,
// lower-case percent-encoding, a ticket-to-cookie cache that needs ticket ids never to repeat).
describe('mod_auth_cas validates tessera service tickets (docs/protocol.md §3)', function () {
  this.timeout(30_000);
  let fixture: CasFixture | undefined;
  let apache: CasApache | undefined;
  let app = '';
  let other = '';
  let waryPort = 0;
  let waryApp = '';

  before(async function () {
    skipUnlessInstalled(this, 'mod_auth_cas', APACHE_PROBES);
    // Services are registered before Apache starts, so reserve its port first.
    const port = await freePort();
    app = `http://127.0.0.1:${port}/app/`;
    other = `http://127.0.0.1:${port}/other/`;
    // A second Apache, started by its test, trusts another CA than the one of tessera's certificate.
    do waryPort = await freePort();
    while (waryPort === port);
    waryApp = `http://127.0.0.1:${waryPort}/app/`;
    fixture = await startCasFixture({ serviceUrls: [app, other, waryApp] });
    apache = await startCasApache({ casUrl: fixture.url, caFile: fixture.caFile, port });
  });
  after(async () => {
    await apache?.stop();
    await fixture?.close();
  });

  async function why(): Promise<string> {
    return `\nmod_auth_cas log:\n${(await apache?.errorLog()) ?? ''}\ntessera log:\n${fixture?.tessera.logs.join('\n') ?? ''}`;
  }

  /** Presents the ticket as a browser would; returns the session cookie mod_auth_cas set, if any. */
  async function present(ticket: string, page = app): Promise<{ status: number; cookie: string | undefined; location: string | null }> {
    const response = await fetch(`${page}?ticket=${ticket}`, { redirect: 'manual' });
    await response.arrayBuffer();
    const cookie = response.headers.get('set-cookie')?.split(';')[0];
    return { status: response.status, cookie, location: response.headers.get('location') };
  }

  it('accepts a fresh ticket, sets its session cookie, and passes casuser and the attributes on', async () => {
    const landing = await present(await fixture!.ticketFor(app));
    expect(landing.status, await why()).to.equal(302);
    expect(landing.location).to.equal(app);
    expect(landing.cookie).to.match(/^MOD_AUTH_CAS=\w+$/);

    const page = await fetch(app, { headers: { cookie: landing.cookie! }, redirect: 'manual' });
    expect(page.status, await why()).to.equal(200);
    expect(await page.text()).to.equal('app\n');
    expect(page.headers.get('cas-user')).to.equal('casuser');
    expect(page.headers.get('cas-mail')).to.equal('casuser@example.org');
    expect(page.headers.get('cas-memberof')).to.equal('staff,faculty');
  });

  it('accepts every new ticket of the same user: each gets its own session and ticket-map entry', async () => {
    const entriesBefore = await apache!.ticketMapEntries();
    const cookies = new Set<string>();
    for (let attempt = 0; attempt < 3; attempt++) {
      const landing = await present(await fixture!.ticketFor(app));
      expect(landing.status, await why()).to.equal(302);
      cookies.add(landing.cookie!);
    }
    expect(cookies.size).to.equal(3);
    expect(await apache!.ticketMapEntries()).to.equal(entriesBefore + 3);
  });

  it('still accepts new tickets after tessera restarts: ids do not repeat although its counter starts again', async () => {
    const entriesBefore = await apache!.ticketMapEntries();
    await fixture!.restartTessera();
    for (let attempt = 0; attempt < 3; attempt++) {
      const landing = await present(await fixture!.ticketFor(app));
      expect(landing.status, await why()).to.equal(302);
    }
    expect(await apache!.ticketMapEntries()).to.equal(entriesBefore + 3);
  });

  it('refuses a replayed ticket: 401 and no session', async () => {
    const ticket = await fixture!.ticketFor(app);
    expect((await present(ticket)).status, await why()).to.equal(302);
    const replay = await present(ticket);
    expect(replay.status).to.equal(401);
    expect(replay.cookie).to.equal(undefined);
    expect(await apache!.errorLog()).to.include('MOD_AUTH_CAS: INVALID_TICKET');
  });

  it('refuses a ticket issued for another service: 401 and no session', async () => {
    const wrong = await present(await fixture!.ticketFor(other), app);
    expect(wrong.status).to.equal(401);
    expect(wrong.cookie).to.equal(undefined);
    expect(await apache!.errorLog()).to.include('MOD_AUTH_CAS: INVALID_SERVICE');
  });

  it("refuses a fresh ticket when tessera's certificate is not of the CA it trusts: 401, curl names the certificate", async () => {
    const wary = await startCasApache({ casUrl: fixture!.url, caFile: fixture!.strangerCaFile, port: waryPort });
    try {
      const landing = await present(await fixture!.ticketFor(waryApp), waryApp);
      expect(landing.status).to.equal(401);
      expect(landing.cookie).to.equal(undefined);
      expect(await wary.errorLog()).to.include('curl_easy_perform() failed (SSL certificate problem: ');
    } finally {
      await wary.stop();
    }
  });

  it('without a session, sends the browser to tessera with the service URL it will validate', async () => {
    const response = await fetch(app, { redirect: 'manual' });
    expect(response.status).to.equal(302);
    expect(response.headers.get('location')).to.equal(`${fixture!.url}/login?service=${encodeURIComponent(app).toLowerCase()}`);
  });
});
