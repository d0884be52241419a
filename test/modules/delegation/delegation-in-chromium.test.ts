import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import * as client from 'openid-client';
import type { Page } from 'playwright-core';
import { launchChromium, skipUnlessChromium, startAppPages, type AppPages, type HeadlessChromium } from '../../support/chromium.js';
import type { Tessera } from '../../support/tessera.js';
import { validate } from '../login/support.js';
import { CLIENT_ID, CLIENT_SECRET, RP_SERVICE } from '../oidc/support.js';
import { freePort, startDelegation } from './support.js';
import { startOidcUpstream, UPSTREAM_CLIENT, type OidcUpstreamServer } from './oidc-upstream.js';

// docs/modules/delegation.md: in a real browser, the button, the upstream's own pages, the page back
// (its script posts the login form by itself, allowed by the CSP) and single sign-on after it.
describe('delegation in headless Chromium: log in through an upstream OpenID provider', function () {
  this.timeout(90_000);
  let upstream: OidcUpstreamServer | undefined;
  let tessera: Tessera | undefined;
  let browser: HeadlessChromium | undefined;
  let app: AppPages | undefined;
  let page: Page;
  let origin = '';
  /** What the browser reported wrong on tessera's pages (a script the CSP refused would be here); the upstream's own pages load fonts from the internet. */
  const consoleErrors: string[] = [];

  before(async function () {
    skipUnlessChromium(this, 'delegation in Chromium');
    app = await startAppPages();
    const appPattern = app.base.replaceAll('.', '\\.');
    const port = await freePort();
    origin = `http://localhost:${port}`;
    upstream = await startOidcUpstream(`${origin}/cas/delegation/callback/partner-oidc`);
    tessera = await startDelegation({
      server: { host: '127.0.0.1', port, nodeName: 'e2e', publicUrl: origin },
      modules: ['rest', 'login', 'delegation', 'oidc'],
      oidc: { keyFile: join(mkdtempSync(join(tmpdir(), 'tessera-delegation-')), 'oidc-keys.json') },
      services: [
        { '@class': 'org.apereo.cas.services.CasRegisteredService', id: 41, name: 'Plain app', serviceId: `^${appPattern}/.*`, attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllAttributeReleasePolicy' } },
        // An OIDC client (tessera's oidc module) on the same app's pages.
        { ...RP_SERVICE, serviceId: `^${appPattern}/oidc/callback$` },
      ],
      delegation: {
        providers: [{ id: 'partner-oidc', type: 'oidc', title: 'Partner OIDC', oidc: { issuer: upstream.issuer, clientId: UPSTREAM_CLIENT.id, clientSecret: UPSTREAM_CLIENT.secret }, attributes: { email: 'mail' } }],
      },
    });
    browser = await launchChromium();
    page = await browser.context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' && message.location().url.startsWith(origin) && !message.location().url.endsWith('/favicon.ico')) consoleErrors.push(`${message.text()} ${message.location().url}`);
    });
  });
  after(async () => {
    await browser?.close();
    await tessera?.close();
    await upstream?.close();
    app?.close();
  });

  it('clicks the button, logs in upstream, comes back to the application with a ticket, then reaches another application and an OIDC client without logging in again', async () => {
    const first = `${app!.base}/first/home`;
    await page.goto(`${origin}/cas/login?service=${encodeURIComponent(first)}`);
    await page.getByRole('button', { name: 'Log in with Partner OIDC' }).click();
    // The upstream's development pages: a login form, then a consent; any login name.
    for (let pages = 0; pages < 3 && page.url().startsWith(upstream!.issuer); pages++) {
      const login = page.locator('input[name="login"]');
      if ((await login.count()) > 0) {
        await login.fill('grace');
        await page.locator('input[name="password"]').fill('any');
      }
      await Promise.all([page.waitForURL((url) => !url.toString().startsWith(page.url()), { timeout: 10_000 }).catch(() => undefined), page.locator('button[type="submit"]').first().click()]);
    }
    await page.waitForURL((url) => url.toString().startsWith(`${first}?ticket=ST-`), { timeout: 15_000 });
    const validated = await validate(`${origin}/cas`, first, new URL(page.url()).searchParams.get('ticket')!);
    expect(validated.user).to.equal('grace');
    expect(validated.attributes?.['mail']).to.deep.equal(['grace@partner.example']);

    const second = `${app!.base}/second/home`;
    await page.goto(`${origin}/cas/login?service=${encodeURIComponent(second)}`);
    await page.waitForURL((url) => url.toString().startsWith(`${second}?ticket=ST-`));

    // An OIDC client of tessera's oidc module: its code at once, the ID token naming the upstream's user.
    const rp = await client.discovery(new URL(`${origin}/cas/oidc`), CLIENT_ID, CLIENT_SECRET, client.ClientSecretBasic(CLIENT_SECRET), { execute: [client.allowInsecureRequests] });
    const redirectUri = `${app!.base}/oidc/callback`;
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    await page.goto(client.buildAuthorizationUrl(rp, { redirect_uri: redirectUri, scope: 'openid email', state, code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' }).href);
    await page.waitForURL((url) => url.toString().startsWith(`${redirectUri}?code=`), { timeout: 15_000 });
    const tokens = await client.authorizationCodeGrant(rp, new URL(page.url()), { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.claims()?.sub).to.equal('grace');
    expect(consoleErrors, consoleErrors.join("\n")).to.deep.equal([]);
  });
});
