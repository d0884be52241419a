import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { launchChromium, skipUnlessChromium, startAppPages, type AppPages, type HeadlessChromium } from '../../support/chromium.js';
import { validate } from '../login/support.js';
import { mfaService, startWebAuthn, type WebAuthnServer } from './support.js';

/**
 * What axe-core finds wrong with the page, one line per rule broken. Evaluated through the DevTools
 * protocol, which the page's CSP does not govern: the pages run under their own policy, as a user's do.
 */
async function violations(page: Page): Promise<string[]> {
  axe ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(await axe);
  const result = await page.evaluate(async () => (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; help: string }[] }> } }).axe.run());
  return result.violations.map((violation) => `${violation.id}: ${violation.help}`);
}
let axe: Promise<string> | undefined;

// docs/modules/webauthn.md, proven in a real browser: headless Chromium with a virtual authenticator (CDP's
// WebAuthn domain: CTAP2, internal, resident keys, user verification) registers a key after the password,
// logs in with it as second factor, then without a password, and steps a password session up with it;
// the pages run under their own Content-Security-Policy, and axe finds nothing wrong with them.
describe('WebAuthn in headless Chromium with a virtual authenticator', function () {
  this.timeout(90_000);
  let server: WebAuthnServer | undefined;
  let browser: HeadlessChromium | undefined;
  let app: AppPages | undefined;
  let page: Page;
  /** What the browser reported wrong: a script or a style the page's CSP refused would be here. */
  const consoleErrors: string[] = [];
  let MFA_APP = '';
  let PLAIN_APP = '';

  before(async function () {
    skipUnlessChromium(this, 'WebAuthn in Chromium');
    app = await startAppPages();
    MFA_APP = `${app.base}/mfa/home`;
    PLAIN_APP = `${app.base}/plain/home`;
    const appPattern = app.base.replaceAll('.', '\\.');
    server = await startWebAuthn({
      services: [
        { ...mfaService(40, 'unused.example.org', ['mfa-webauthn']), name: 'Key app', serviceId: `^${appPattern}/mfa/.*` },
        { '@class': 'org.apereo.cas.services.CasRegisteredService', id: 41, name: 'Plain app', serviceId: `^${appPattern}/plain/.*`, attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllAttributeReleasePolicy' } },
      ],
    });
    browser = await launchChromium();
    page = await browser.context.newPage();
    page.on('console', (message) => {
      // The browser's own ask for /favicon.ico (tessera serves none) is no page's doing.
      if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) consoleErrors.push(`${message.text()} ${message.location().url}`);
    });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
  });
  after(async () => {
    await browser?.close();
    await server?.tessera.close();
    app?.close();
  });

  const loginUrl = (service: string) => `${server!.origin}/cas/login?service=${encodeURIComponent(service)}`;
  const ticketFrom = (url: string) => new URL(url).searchParams.get('ticket')!;
  const logOut = () => page.goto(`${server!.origin}/cas/logout`);

  const password = async (service: string) => {
    await page.goto(loginUrl(service));
    await page.getByLabel('Username').fill('casuser');
    await page.getByLabel('Password').fill('Mellon');
    await Promise.all([page.waitForURL(`${server!.origin}/cas/login`), page.getByRole('button', { name: 'Log in', exact: true }).click()]);
  };

  it('registers a key after the password for a service asking mfa-webauthn; its page passes axe', async () => {
    await password(MFA_APP);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('Register a security key');
    expect(await violations(page)).to.deep.equal([]);
    await page.getByLabel('Name of the key').fill('Virtual key');
    await Promise.all([page.waitForURL((url) => url.toString().startsWith(`${MFA_APP}?ticket=ST-`)), page.getByRole('button', { name: 'Register my security key' }).click()]);
    const validated = await validate(server!.tessera.url, MFA_APP, ticketFrom(page.url()));
    expect(validated.user).to.equal('casuser');
    expect(validated.attributes?.['authnContextClass']).to.deep.equal(['mfa-webauthn']);
  });

  it('asks the key after the password from then on; its page passes axe', async () => {
    await logOut();
    await password(MFA_APP);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('Security key');
    expect(await violations(page)).to.deep.equal([]);
    await Promise.all([page.waitForURL((url) => url.toString().startsWith(`${MFA_APP}?ticket=ST-`)), page.getByRole('button', { name: 'Use my security key' }).click()]);
    expect((await validate(server!.tessera.url, MFA_APP, ticketFrom(page.url()))).attributes?.['authnContextClass']).to.deep.equal(['mfa-webauthn']);
  });

  it('logs in with the passkey alone from the login page (its button shown under the page’s CSP), which passes axe', async () => {
    await logOut();
    await page.goto(loginUrl(MFA_APP));
    const button = page.getByRole('button', { name: 'Log in with a passkey' });
    await button.waitFor({ state: 'visible' });
    expect(await violations(page)).to.deep.equal([]);
    await Promise.all([page.waitForURL((url) => url.toString().startsWith(`${MFA_APP}?ticket=ST-`)), button.click()]);
    const validated = await validate(server!.tessera.url, MFA_APP, ticketFrom(page.url()));
    expect(validated.user).to.equal('casuser');
    expect(validated.attributes?.['authnContextClass'], 'the passkey counts as the factor').to.deep.equal(['mfa-webauthn']);
  });

  it('steps a password session up with the key for the mfa-webauthn service', async () => {
    await logOut();
    await page.goto(loginUrl(PLAIN_APP));
    await page.getByLabel('Username').fill('casuser');
    await page.getByLabel('Password').fill('Mellon');
    await Promise.all([page.waitForURL((url) => url.toString().startsWith(`${PLAIN_APP}?ticket=ST-`)), page.getByRole('button', { name: 'Log in', exact: true }).click()]);
    await page.goto(loginUrl(MFA_APP));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('Security key');
    await Promise.all([page.waitForURL((url) => url.toString().startsWith(`${MFA_APP}?ticket=ST-`)), page.getByRole('button', { name: 'Use my security key' }).click()]);
    expect((await validate(server!.tessera.url, MFA_APP, ticketFrom(page.url()))).user).to.equal('casuser');
  });

  it('ran every page under its own CSP without a refusal: nothing reported in the console', () => {
    expect(consoleErrors.join("\n")).to.equal("");
  });
});
