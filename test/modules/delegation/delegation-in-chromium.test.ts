import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { freePort } from '@tessera/testkit';
import { startCasFixture, type CasFixture } from '../../clients/cas-fixture.js';
import { skipUnlessInstalled } from '../../clients/harness.js';
import { OIDC_APACHE_PROBES, OIDC_APACHE_SECRET, oidcApacheClient, startOidcApache, type OidcApache } from '../../clients/oidc-apache.js';
import { launchChromium, skipUnlessChromium, spkiHash, type HeadlessChromium } from '../../support/chromium.js';
import type { Tessera } from '../../support/tessera.js';
import { startLogin } from '../login/support.js';
import { CLIENT as OAUTH2_CLIENT, startFakeOAuth2 } from './oauth2-upstream.js';
import { startOidcUpstream, UPSTREAM_CLIENT } from './oidc-upstream.js';


/** An upstream the test started for one button: its provider settings, how a user logs in on its own pages, and its logout. */
interface StartedUpstream {
  /** Its entry in `delegation.providers`. */
  readonly provider: Record<string, unknown>;
  /** The upstream's own pages, from the moment the button sent the browser there: the user logs in. */
  logIn(page: Page): Promise<void>;
  /**
   * With `logout` on: what the user does on the upstream's logout page, if it asks (an OpenID provider's
   * confirmation), and whether the upstream asks for the password again on the next login (its session gone).
   */
  readonly logout?: { confirm(page: Page): Promise<void>; asksPasswordAgain(page: Page): Promise<boolean> };
  close(): Promise<void>;
}

/** One button of the login page: its title, who the upstream proves, and how its upstream is started for tessera at `publicUrl`. */
interface UpstreamButton {
  readonly title: string;
  readonly user: string;
  readonly mail: string;
  start(publicUrl: string): Promise<StartedUpstream>;
}

/**
 * Each button on main, one entry each; a SAML 2 upstream is one more entry (its IdP started, its
 * provider settings, its login page, its single logout).
 */
const BUTTONS: readonly UpstreamButton[] = [
  {
    // node-oidc-provider, started here: its development pages ask a login name and a password, then consent.
    title: 'Partner OIDC',
    user: 'grace',
    mail: 'grace@partner.example',
    async start(publicUrl) {
      const upstream = await startOidcUpstream(`${publicUrl}/cas/delegation/callback/partner-oidc`, { postLogoutRedirectUris: [`${publicUrl}/cas/delegation/logout`] });
      return {
        provider: { id: 'partner-oidc', type: 'oidc', title: 'Partner OIDC', oidc: { issuer: upstream.issuer, clientId: UPSTREAM_CLIENT.id, clientSecret: UPSTREAM_CLIENT.secret }, attributes: { email: 'mail' }, logout: true },
        async logIn(page) {
          for (let pages = 0; pages < 3 && page.url().startsWith(upstream.issuer); pages++) {
            const login = page.locator('input[name="login"]');
            if ((await login.count()) > 0) {
              await login.fill('grace');
              await page.locator('input[name="password"]').fill('any');
            }
            const here = page.url();
            await Promise.all([page.waitForURL((url) => url.toString() !== here, { timeout: 10_000 }).catch(() => undefined), page.locator('button[type="submit"]').first().click()]);
          }
        },
        logout: {
          async confirm(page) {
            await page.waitForURL((url) => url.toString().startsWith(`${upstream.issuer}/session/end`), { timeout: 10_000 });
            await page.getByRole('button', { name: 'Yes, sign me out' }).click();
          },
          async asksPasswordAgain(page) {
            await page.waitForURL((url) => url.toString().startsWith(upstream.issuer), { timeout: 10_000 });
            return (await page.locator('input[name="password"]').count()) > 0;
          },
        },
        close: () => upstream.close(),
      };
    },
  },
  {
    // A GitHub-style OAuth 2.0 provider, started here: it says yes at once. Plain OAuth 2.0 has no logout.
    title: 'Code hosting',
    user: 'octocat',
    mail: 'octocat@github.example',
    async start() {
      const fake = await startFakeOAuth2();
      return {
        provider: {
          id: 'code-hosting',
          type: 'oauth2',
          title: 'Code hosting',
          oauth2: { authorizationUrl: `${fake.base}/authorize`, tokenUrl: `${fake.base}/token`, profileUrl: `${fake.base}/user`, clientId: OAUTH2_CLIENT.id, clientSecret: OAUTH2_CLIENT.secret },
          principalAttribute: 'login',
          attributes: { email: 'mail' },
        },
        logIn: () => Promise.resolve(),
        close: () =>
          new Promise<void>((resolve) => {
            fake.server.closeAllConnections();
            fake.server.close(() => resolve());
          }),
      };
    },
  },
  {
    // A second tessera as the partner's CAS server: its own login form; it follows the way back from its logout (a registered service).
    title: 'Partner CAS',
    user: 'bob',
    mail: 'bob@partner.example',
    async start(publicUrl) {
      const upstream: Tessera = await startLogin({
        users: [{ username: 'bob', password: 'Builder', attributes: { mail: ['bob@partner.example'] } }],
        services: [
          {
            '@class': 'org.apereo.cas.services.CasRegisteredService',
            id: 1,
            name: 'Our tessera',
            serviceId: `^${publicUrl.replaceAll('.', '\\.')}/cas/delegation/(callback/|logout\\?).*`,
            attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllAttributeReleasePolicy' },
          },
        ],
      });
      return {
        provider: { id: 'partner-cas', type: 'cas', title: 'Partner CAS', cas: { serverUrl: upstream.url }, attributes: { mail: 'mail' }, logout: true },
        async logIn(page) {
          await page.waitForURL((url) => url.toString().startsWith(`${upstream.url}/login`), { timeout: 10_000 });
          await page.getByLabel('Username').fill('bob');
          await page.getByLabel('Password').fill('Builder');
          const here = page.url();
          await Promise.all([page.waitForURL((url) => url.toString() !== here, { timeout: 10_000 }), page.getByRole('button', { name: 'Log in', exact: true }).click()]);
        },
        logout: {
          confirm: () => Promise.resolve(),
          async asksPasswordAgain(page) {
            await page.waitForURL((url) => url.toString().startsWith(`${upstream.url}/login`), { timeout: 10_000 });
            return (await page.getByLabel('Password').count()) > 0;
          },
        },
        close: () => upstream.close(),
      };
    },
  },
];



// docs/modules/delegation.md: in a real browser, for each button: the upstream's own pages, the page back
// (its script posts the login form by itself, allowed by the CSP), a mod_auth_cas location and an OIDC
// client (mod_auth_openidc) on the session without another login; then tessera's logout, the
// upstream's logout after it, and the proof that both ended (the upstream and the mod_auth_cas page ask again).
describe('delegation in headless Chromium: each button, then mod_auth_cas and an OIDC client without another login, then the logout upstream', function () {
  this.timeout(180_000);
  let upstreams: StartedUpstream[] = [];
  let fixture: CasFixture | undefined;
  let apache: OidcApache | undefined;
  let base = '';
  let spki = '';

  before(async function () {
    skipUnlessChromium(this, 'delegation in Chromium');
    skipUnlessInstalled(this, 'mod_auth_cas and mod_auth_openidc for delegation in Chromium', OIDC_APACHE_PROBES);
    const tesseraPort = await freePort();
    const apachePort = await freePort();
    base = `http://127.0.0.1:${apachePort}`;
    const publicUrl = `https://127.0.0.1:${tesseraPort}`;
    for (const button of BUTTONS) upstreams.push(await button.start(publicUrl));
    fixture = await startCasFixture({
      serviceUrls: [`${base}/cas-app/`],
      browserLogin: true,
      oidc: { port: tesseraPort, clients: [oidcApacheClient(base)] },
      more: { modules: ['delegation'], settings: { delegation: { providers: upstreams.map((upstream) => upstream.provider) } } },
    });
    apache = await startOidcApache({ casUrl: fixture.url, caFile: fixture.caFile, port: apachePort, clientId: 'apache', clientSecret: OIDC_APACHE_SECRET });
    spki = await spkiHash(fixture.certFile);
  });
  after(async () => {
    await apache?.stop();
    await fixture?.close();
    for (const upstream of upstreams) await upstream.close();
    upstreams = [];
  });

  BUTTONS.forEach((button, index) => {
    it(`${button.title}: logs in upstream, reaches the mod_auth_cas page and the OIDC client without another login; the logout ends the session${button.title === 'Code hosting' ? '' : ' and the upstream’s'}`, async () => {
      const upstream = upstreams[index]!;
      const chromium: HeadlessChromium = await launchChromium({ args: [`--ignore-certificate-errors-spki-list=${spki}`] });
      try {
        const page = await chromium.context.newPage();
        const consoleErrors: string[] = [];
        page.on('console', (message) => {
          if (message.type() === 'error' && message.location().url.startsWith(fixture!.url) && !message.location().url.endsWith('/favicon.ico')) consoleErrors.push(`${message.text()} ${message.location().url}`);
        });
        const why = async () => `\nat ${page.url()}:\n${(await page.locator('body').innerText({ timeout: 2000 }).catch(() => '')).slice(0, 1500)}\ntessera log:\n${fixture!.tessera.logs.slice(-15).join('\n')}`;
        const arrive = async (url: string) => {
          const there = await page.waitForURL(url, { timeout: 15_000 }).then(
            () => true,
            () => false,
          );
          if (!there) throw new Error(`the browser never reached ${url}${await why()}`);
        };

        // mod_auth_cas sends the browser to tessera's login page; the button, the upstream, and back to the page.
        await page.goto(`${base}/cas-app/`);
        expect(await page.getByRole('heading', { level: 1 }).textContent(), await why()).to.equal('Log in');
        await page.getByRole('button', { name: `Log in with ${button.title}` }).click();
        await upstream.logIn(page);
        await arrive(`${base}/cas-app/`);
        expect(await page.getByRole('heading', { level: 1 }).textContent(), await why()).to.equal('CAS app');
        expect(await page.locator('#user').textContent()).to.equal(button.user);

        // The OIDC client: tessera's authorization endpoint finds the session, no form, no upstream.
        await page.goto(`${base}/oidc-app/`);
        await arrive(`${base}/oidc-app/`);
        expect(await page.getByRole('heading', { level: 1 }).textContent(), await why()).to.equal('OIDC app');
        expect(await page.locator('#sub').textContent()).to.equal(button.user);
        expect(await page.locator('#email').textContent()).to.equal(button.mail);

        // tessera's logout, then the upstream's: back on tessera's logged-out page.
        const delivered = () => fixture!.tessera.audit.filter((line) => line.includes('"action":"logout.request.delivered"')).length;
        const deliveredBefore = delivered();
        await page.goto(`${fixture!.url}/logout`);
        await upstream.logout?.confirm(page);
        await arrive(`${fixture!.url}/logout`);
        expect(await page.getByRole('heading', { level: 1 }).textContent(), await why()).to.equal('You are logged out');

        // The mod_auth_cas page asks for the login form again, once single logout reached it.
        const deadline = Date.now() + 10_000;
        while (delivered() === deliveredBefore && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
        await page.goto(`${base}/cas-app/`);
        expect(await page.getByRole('heading', { level: 1 }).textContent(), await why()).to.equal('Log in');
        expect(page.url()).to.match(new RegExp(`^${fixture!.url}/login\\?service=`));
        if (upstream.logout !== undefined) {
          // The upstream's session ended too: its button leads to its password again.
          await page.getByRole('button', { name: `Log in with ${button.title}` }).click();
          expect(await upstream.logout.asksPasswordAgain(page), await why()).to.equal(true);
        }
        expect(consoleErrors, consoleErrors.join('\n')).to.deep.equal([]);
      } finally {
        await chromium.close();
      }
    });
  });
});
