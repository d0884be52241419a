import { expect } from 'chai';
import { accessibilityViolations, launchChromium, skipUnlessChromium, startAppPages, type AppPages, type HeadlessChromium } from '../../support/chromium.js';
import type { Tessera } from '../../support/tessera.js';
import { servicesWith, startLogin, validate } from '../login/support.js';

// docs/modules/consent.md: the consent page in a real browser (Debian's Chromium, headless), as the
// login pages: it renders under its own CSP, its choices are labelled, axe-core finds no violation.
describe('the consent page in headless Chromium, checked by axe-core (docs/modules/consent.md)', function () {
  this.timeout(60_000);
  let tessera: Tessera | undefined;
  let browser: HeadlessChromium | undefined;
  let app: AppPages | undefined;
  let base = '';

  before(async function () {
    skipUnlessChromium(this, 'the consent page in Chromium');
    app = await startAppPages();
    base = app.base;
    tessera = await startLogin({
      modules: ['rest', 'login', 'consent'],
      services: servicesWith({
        '@class': 'org.apereo.cas.services.CasRegisteredService',
        id: 20,
        name: 'Local app',
        serviceId: `^${app.base.replaceAll('.', '\\.')}/.*`,
        attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllAttributeReleasePolicy' },
      }),
    });
    // axe is injected as a script: the pages' own CSP allows none, so the test context bypasses it.
    browser = await launchChromium({ bypassCSP: true, viewport: { width: 800, height: 900 } });
  });
  after(async () => {
    await browser?.close();
    await tessera?.close();
    app?.close();
  });

  it('after the password: the attributes and the labelled options, no violation; Allow with a chosen option reaches the service with a ticket', async () => {
    const page = await browser!.context.newPage();
    const service = `${base}/app/home`;
    await page.goto(`${tessera!.url}/login?service=${encodeURIComponent(service)}`);
    await page.getByLabel('Username').fill('casuser');
    await page.getByLabel('Password').fill('Mellon');
    await Promise.all([page.waitForURL(`${tessera!.url}/login`), page.getByRole('button', { name: 'Log in' }).click()]);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('Share your information?');
    expect(await page.locator('dt').allTextContents()).to.deep.equal(['mail', 'memberOf']);
    expect(await page.locator('dd').allTextContents()).to.deep.equal(['casuser@example.org', 'staff', 'faculty']);
    expect(await page.getByRole('radio', { name: 'When the kinds of information shared change' }).isChecked()).to.equal(true);
    // The page's own stylesheet applied under its CSP: Deny is the secondary button, on the page's background.
    expect(await page.evaluate<string>("getComputedStyle(document.querySelector('button.secondary')).backgroundColor")).to.equal('rgb(255, 255, 255)');
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await page.getByRole('radio', { name: 'When the information shared, or any of its values, changes' }).check();
    await Promise.all([page.waitForURL((url) => url.toString().startsWith(`${service}?ticket=ST-`)), page.getByRole('button', { name: 'Allow' }).click()]);
    const ticket = new URL(page.url()).searchParams.get('ticket')!;
    expect((await validate(tessera!.url, service, ticket)).attributes?.['mail']).to.deep.equal(['casuser@example.org']);
    await page.close();
  });

  it('on single sign-on to another URL: the page again; Deny leaves the user here, on a page without violations', async () => {
    const page = await browser!.context.newPage();
    await page.goto(`${tessera!.url}/login?service=${encodeURIComponent(`${base}/app/other`)}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('Share your information?');
    await Promise.all([page.waitForURL(`${tessera!.url}/login/step`), page.getByRole('button', { name: 'Deny' }).click()]);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('Nothing was shared');
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await page.close();
  });
});
