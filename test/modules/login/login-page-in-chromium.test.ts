import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { accessibilityViolations, launchChromium, skipUnlessChromium, startAppPages, type AppPages, type HeadlessChromium } from '../../support/chromium.js';
import type { Tessera } from '../../support/tessera.js';
import { SCREENSHOT_BRANDING, servicesWith, startLogin, validate } from './support.js';

/** `UPDATE_SCREENSHOTS=1` writes the picture of the page that README.md and docs/modules/login.md show. */
const SCREENSHOT = fileURLToPath(new URL('../../../docs/login-page.png', import.meta.url));

// docs/protocol.md §12.3: the login page in a real browser (Debian's Chromium, headless): it renders,
// submits, and axe-core finds no accessibility violation on its pages.
describe('the login page in headless Chromium, checked by axe-core (docs/protocol.md §12.3)', function () {
  this.timeout(60_000);
  let tessera: Tessera | undefined;
  let browser: HeadlessChromium | undefined;
  let app: AppPages | undefined;
  /** The service the user logs in to: a page of its own on this machine. */
  let APP = '';

  before(async function () {
    skipUnlessChromium(this, 'the login page in Chromium');
    app = await startAppPages();
    APP = `${app.base}/app/home`;
    tessera = await startLogin({
      services: servicesWith({ id: 20, name: 'Local app', serviceId: `^${app.base.replaceAll('.', '\\.')}/app/.*` }),
      login: { branding: SCREENSHOT_BRANDING },
    });
    // axe is injected as a script: the pages' own CSP allows none, so the test context bypasses it.
    browser = await launchChromium({ bypassCSP: true, viewport: { width: 800, height: 720 } });
  });
  after(async () => {
    await browser?.close();
    await tessera?.close();
    app?.close();
  });

  it('renders the form with its labels, focuses the username, and axe finds no violation', async () => {
    const page = await browser!.context.newPage();
    const response = await page.goto(`${tessera!.url}/login?service=${encodeURIComponent('https://app.example.org/home')}`);
    expect(response?.status()).to.equal(200);
    expect(await page.title()).to.equal('Log in – Example University');
    expect(await page.getByText('Log in to continue to').textContent()).to.equal('Log in to continue to App (app.example.org).');
    expect(await page.getByLabel('Username').isVisible()).to.equal(true);
    expect(await page.getByLabel('Password').isVisible()).to.equal(true);
    expect(await page.evaluate<string | undefined>('document.activeElement?.id')).to.equal('username');
    // The page's own stylesheet applied under its CSP: the button has the accent colour.
    expect(await page.evaluate<string>("getComputedStyle(document.querySelector('button')).backgroundColor")).to.equal('rgb(29, 78, 216)');
    if (process.env['UPDATE_SCREENSHOTS'] === '1') await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await page.close();
  });

  it('a refused login shows the message, still without violations; the right password reaches the service with a ticket', async () => {
    const page = await browser!.context.newPage();
    await page.goto(`${tessera!.url}/login?service=${encodeURIComponent(APP)}`);
    await page.getByLabel('Username').fill('casuser');
    await page.getByLabel('Password').fill('wrong');
    await Promise.all([page.waitForURL(`${tessera!.url}/login`), page.getByRole('button', { name: 'Log in' }).click()]);
    expect(await page.getByRole('alert').textContent()).to.equal('The username, password or one-time code is not right. Please try again.');
    expect(await accessibilityViolations(page)).to.deep.equal([]);

    await page.getByLabel('Password').fill('Mellon');
    await Promise.all([page.waitForURL((url) => url.toString().startsWith(`${APP}?ticket=ST-`)), page.getByRole('button', { name: 'Log in' }).click()]);
    const ticket = new URL(page.url()).searchParams.get('ticket')!;
    expect((await validate(tessera!.url, APP, ticket)).user).to.equal('casuser');
    await page.close();
  });

  it('the logged-in and logged-out pages have no violations either', async () => {
    const page = await browser!.context.newPage();
    await page.goto(`${tessera!.url}/login`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('You are logged in');
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await Promise.all([page.waitForURL(`${tessera!.url}/logout`), page.getByRole('link', { name: 'Log out' }).click()]);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('You are logged out');
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await page.close();
  });
});
