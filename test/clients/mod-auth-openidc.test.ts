import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { freePort } from '@tessera/testkit';
import { launchChromium, skipUnlessChromium, spkiHash, type HeadlessChromium } from '../support/chromium.js';
import { startCasFixture, type CasFixture } from './cas-fixture.js';
import { skipUnlessInstalled } from './harness.js';
import { OIDC_APACHE_PROBES, OIDC_APACHE_SECRET, oidcApacheClient, startOidcApache, type OidcApache } from './oidc-apache.js';



// docs/modules/oidc.md: Apache mod_auth_openidc with tessera as its OpenID Provider, in a real browser
// (Debian's Chromium, headless): tessera's login form, the claims on the application's page, a
// mod_auth_cas page on the same session without a second login, and the OIDC logout ending it.
describe('mod_auth_openidc and mod_auth_cas on one tessera session, in Chromium', function () {
  this.timeout(90_000);
  let fixture: CasFixture | undefined;
  let apache: OidcApache | undefined;
  let browser: HeadlessChromium | undefined;
  let base = '';

  before(async function () {
    skipUnlessInstalled(this, 'mod_auth_openidc', OIDC_APACHE_PROBES);
    skipUnlessChromium(this, 'mod_auth_openidc in Chromium');
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // Its redirect URI, and the public page the OIDC logout returns to.
    const client = oidcApacheClient(base, '(oidc-app/redirect_uri(\\?.*)?|logged-out/)');
    fixture = await startCasFixture({ serviceUrls: [`${base}/cas-app/`], browserLogin: true, oidc: { port: await freePort(), clients: [client] } });
    apache = await startOidcApache({ casUrl: fixture.url, caFile: fixture.caFile, port, clientId: 'apache', clientSecret: OIDC_APACHE_SECRET });
    // Chromium has no store for the run's test CA: it accepts tessera's certificate by its key, and nothing else untrusted.
    browser = await launchChromium({ args: [`--ignore-certificate-errors-spki-list=${await spkiHash(fixture.certFile)}`] });
  });
  after(async () => {
    await browser?.close();
    await apache?.stop();
    await fixture?.close();
  });

  async function why(page: Page): Promise<string> {
    const body = await page.content().catch(() => '');
    return `\nat ${page.url()}:\n${body.slice(0, 2000)}\nApache log:\n${(await apache?.errorLog())?.split('\n').slice(-30).join('\n') ?? ''}\ntessera log:\n${fixture?.tessera.logs.slice(-20).join('\n') ?? ''}`;
  }

  it("logs in through tessera's form, shows the claims, opens the CAS page without a second login, and the OIDC logout ends the CAS session", async () => {
    const page = await browser!.context.newPage();
    await page.goto(`${base}/oidc-app/`);
    expect(await page.getByRole('heading', { level: 1 }).textContent(), await why(page)).to.equal('Log in');
    expect(page.url()).to.match(new RegExp(`^${fixture!.url}/login\\?service=`));

    await page.getByLabel('Username').fill('casuser');
    await page.getByLabel('Password').fill('Mellon');
    await Promise.all([page.waitForURL(`${base}/oidc-app/`), page.getByRole('button', { name: 'Log in' }).click()]);
    expect(await page.getByRole('heading', { level: 1 }).textContent(), await why(page)).to.equal('OIDC app');
    expect(await page.locator('#sub').textContent()).to.equal('casuser');
    expect(await page.locator('#email').textContent()).to.equal('casuser@example.org');

    // The same browser session opens the mod_auth_cas application without the form.
    const cas = await page.goto(`${base}/cas-app/`);
    expect(page.url(), await why(page)).to.equal(`${base}/cas-app/`);
    expect(await page.locator('#user').textContent()).to.equal('casuser');
    expect(await cas!.headerValue('CAS-User')).to.equal('casuser');

    // RP-initiated logout through mod_auth_openidc: tessera asks to confirm, then ends its session.
    await page.goto(`${base}/oidc-app/redirect_uri?logout=${encodeURIComponent(`${base}/logged-out/`)}`);
    expect(page.url(), await why(page)).to.match(new RegExp(`^${fixture!.url}/oidc/`));
    await Promise.all([page.waitForURL(`${base}/logged-out/`), page.getByRole('button', { name: 'Log out', exact: true }).click()]);
    expect(await page.getByRole('heading', { level: 1 }).textContent(), await why(page)).to.equal('Logged out');
    await page.goto(`${fixture!.url}/login`);
    expect(await page.getByRole('heading', { level: 1 }).textContent(), await why(page)).to.equal('Log in');

    // CAS single logout told mod_auth_cas: its page asks for the form again.
    const delivered = () => fixture!.tessera.audit.some((line) => line.includes('"action":"logout.request.delivered"'));
    const deadline = Date.now() + 10_000;
    while (!delivered() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    await page.goto(`${base}/cas-app/`);
    expect(await page.getByRole('heading', { level: 1 }).textContent(), await why(page)).to.equal('Log in');
    expect(page.url()).to.match(new RegExp(`^${fixture!.url}/login\\?service=`));
  });
});
