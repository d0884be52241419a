import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import * as client from 'openid-client';
import type { Page } from 'playwright-core';
import { startCasFixture, type CasFixture } from '../../clients/cas-fixture.js';
import { skipUnlessInstalled } from '../../clients/harness.js';
import { OIDC_APACHE_PROBES, OIDC_APACHE_SECRET, oidcApacheClient, startOidcApache, type OidcApache } from '../../clients/oidc-apache.js';
import { launchChromium, skipUnlessChromium, spkiHash, startAppPages, type AppPages, type HeadlessChromium } from '../../support/chromium.js';
import type { Tessera } from '../../support/tessera.js';
import { validate } from '../login/support.js';
import { CLIENT_ID, CLIENT_SECRET, RP_SERVICE } from '../oidc/support.js';
import { freePort, startDelegation } from './support.js';
import { SIMPLESAMLPHP_PROBES, startSimpleSamlPhpFor, type SimpleSamlPhp } from './simplesamlphp.js';

const PROVIDER = 'ssp';

// docs/modules/delegation.md: in a real browser, through a real SAML 2 identity provider (Debian's
// SimpleSAMLphp): the button, a signed AuthnRequest, the IdP's own login form, its Response posted
// back across sites (without tessera's SameSite=Lax cookie), posted again by tessera's page (with it),
// then single sign-on to a CAS application and an OIDC client.
describe('delegation in headless Chromium: log in through an upstream SAML 2 identity provider (SimpleSAMLphp)', function () {
  this.timeout(120_000);
  let idp: SimpleSamlPhp | undefined;
  let tessera: Tessera | undefined;
  let browser: HeadlessChromium | undefined;
  let app: AppPages | undefined;
  let page: Page;
  let origin = '';
  /** What the browser reported wrong on tessera's pages (a script the CSP refused would be here). */
  const consoleErrors: string[] = [];
  /** The posts to the callback as the browser sent them: whether each carried tessera's delegation cookie. */
  const callbackPosts: { readonly postedAgain: boolean; readonly withCookie: boolean }[] = [];

  before(async function () {
    skipUnlessChromium(this, 'delegation through SimpleSAMLphp in Chromium');
    skipUnlessInstalled(this, 'SimpleSAMLphp', SIMPLESAMLPHP_PROBES, 'scripts/install-simplesamlphp.sh');
    app = await startAppPages();
    const appPattern = app.base.replaceAll('.', '\\.');
    const [port, idpPort] = [await freePort(), await freePort()] as const;
    origin = `http://localhost:${port}`;
    const folder = mkdtempSync(join(tmpdir(), 'tessera-delegation-ssp-'));
    const started = await startSimpleSamlPhpFor(`${origin}/cas`, PROVIDER, {
      port: idpPort,
      folder,
      users: [{ username: 'student', password: 'studentpass', attributes: { uid: ['student'], mail: ['student@ssp.example'], eduPersonAffiliation: ['member', 'student'] } }],
    });
    idp = started.idp;
    tessera = await startDelegation({
      server: { host: '127.0.0.1', port, nodeName: 'e2e', publicUrl: origin },
      modules: ['rest', 'login', 'delegation', 'oidc'],
      oidc: { keyFile: join(folder, 'oidc-keys.json') },
      services: [
        { '@class': 'org.apereo.cas.services.CasRegisteredService', id: 41, name: 'Plain app', serviceId: `^${appPattern}/.*`, attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllAttributeReleasePolicy' } },
        { ...RP_SERVICE, serviceId: `^${appPattern}/oidc/callback$` },
      ],
      delegation: {
        providers: [
          {
            id: PROVIDER,
            type: 'saml2',
            title: 'SimpleSAMLphp',
            // Its metadata from its own URL (plain http on this machine).
            saml2: { metadata: idp.metadataUrl, idpEntityId: idp.entityId, ...started.sp, signAuthnRequests: true },
            principalAttribute: 'uid',
            attributes: { mail: 'mail', eduPersonAffiliation: 'memberOf' },
            // Its single logout after tessera's: a signed LogoutRequest, SimpleSAMLphp's signed LogoutResponse back.
            logout: true,
          },
        ],
      },
    });
    browser = await launchChromium();
    page = await browser.context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' && message.location().url.startsWith(origin) && !message.location().url.endsWith('/favicon.ico')) consoleErrors.push(`${message.text()} ${message.location().url}`);
    });
    page.on('request', (request) => {
      if (request.method() !== 'POST' || !request.url().startsWith(`${origin}/cas/delegation/callback/`)) return;
      void request.allHeaders().then((headers) => callbackPosts.push({ postedAgain: (request.postData() ?? '').includes('delegationPostedAgain=true'), withCookie: (headers['cookie'] ?? '').includes('TDELEGATION=') }));
    });
  });
  afterEach(async function () {
    if (idp !== undefined && this.currentTest?.state === 'failed') process.stdout.write(`SimpleSAMLphp's Apache error log:\n${await idp.errorLog()}\n`);
  });
  after(async () => {
    await browser?.close();
    await tessera?.close();
    await idp?.stop();
    app?.close();
  });

  it('clicks the button, logs in at SimpleSAMLphp, comes back to the application with a ticket, then reaches another application and an OIDC client without logging in again', async () => {
    const first = `${app!.base}/first/home`;
    await page.goto(`${origin}/cas/login?service=${encodeURIComponent(first)}`);
    await page.getByRole('button', { name: 'Log in with SimpleSAMLphp' }).click();
    await page.waitForURL((url) => url.toString().startsWith(idp!.base), { timeout: 15_000 });
    await page.locator('input[name="username"]').fill('student');
    await page.locator('input[name="password"]').fill('studentpass');
    await Promise.all([page.waitForURL((url) => !url.toString().startsWith(idp!.base), { timeout: 20_000 }), page.locator('input[name="password"]').press('Enter')]);
    await page.waitForURL((url) => url.toString().startsWith(`${first}?ticket=ST-`), { timeout: 20_000 });
    const validated = await validate(`${origin}/cas`, first, new URL(page.url()).searchParams.get('ticket')!);
    expect(validated.user).to.equal('student');
    expect(validated.attributes?.['mail']).to.deep.equal(['student@ssp.example']);
    expect(validated.attributes?.['memberOf']).to.deep.equal(['member', 'student']);
    expect(validated.attributes?.['delegatedProvider']).to.deep.equal([PROVIDER]);
    // The IdP's post came across sites without tessera's SameSite=Lax cookie; tessera's own page posted it again with it.
    expect(callbackPosts).to.deep.equal([
      { postedAgain: false, withCookie: false },
      { postedAgain: true, withCookie: true },
    ]);

    const second = `${app!.base}/second/home`;
    await page.goto(`${origin}/cas/login?service=${encodeURIComponent(second)}`);
    await page.waitForURL((url) => url.toString().startsWith(`${second}?ticket=ST-`));

    const rp = await client.discovery(new URL(`${origin}/cas/oidc`), CLIENT_ID, CLIENT_SECRET, client.ClientSecretBasic(CLIENT_SECRET), { execute: [client.allowInsecureRequests] });
    const redirectUri = `${app!.base}/oidc/callback`;
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    await page.goto(client.buildAuthorizationUrl(rp, { redirect_uri: redirectUri, scope: 'openid email', state, code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' }).href);
    await page.waitForURL((url) => url.toString().startsWith(`${redirectUri}?code=`), { timeout: 15_000 });
    const tokens = await client.authorizationCodeGrant(rp, new URL(page.url()), { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.claims()?.sub).to.equal('student');
    expect(consoleErrors, consoleErrors.join('\n')).to.deep.equal([]);
  });

  it('logs out at tessera, then at SimpleSAMLphp through its single logout, and lands on tessera’s logged-out page; the next button click asks for SimpleSAMLphp’s password again', async () => {
    const logoutAnswers: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(`${origin}/cas/delegation/logout`)) logoutAnswers.push(request.url());
    });
    await page.goto(`${origin}/cas/logout`);
    await page.waitForURL((url) => url.toString() === `${origin}/cas/logout`, { timeout: 20_000 });
    expect(await page.locator('h1').textContent()).to.match(/logged out/i);
    expect(await page.locator('body').textContent()).to.not.include('did not confirm');
    // SimpleSAMLphp answered with its LogoutResponse, over HTTP-Redirect and signed, which tessera verified.
    expect(logoutAnswers).to.have.length(1);
    const answer = new URL(logoutAnswers[0]!);
    expect(answer.searchParams.get('SAMLResponse')).to.have.length.greaterThan(20);
    expect(answer.searchParams.get('Signature')).to.have.length.greaterThan(100);

    const first = `${app!.base}/first/home`;
    await page.goto(`${origin}/cas/login?service=${encodeURIComponent(first)}`);
    await page.getByRole('button', { name: 'Log in with SimpleSAMLphp' }).click();
    await page.waitForURL((url) => url.toString().startsWith(idp!.base), { timeout: 15_000 });
    await page.locator('input[name="password"]').waitFor({ timeout: 15_000 });
    expect(consoleErrors, consoleErrors.join('\n')).to.deep.equal([]);
  });
});

// docs/modules/delegation.md: the same IdP before a mod_auth_cas location (Apache, tessera as its CAS
// server over https, as clients/cas-fixture.ts starts it): the login through SimpleSAMLphp reaches the
// location, the logout at tessera ends it (back-channel single logout) and SimpleSAMLphp's session
// (its single logout), so both ask again.
describe('delegation in headless Chromium: SimpleSAMLphp, then a mod_auth_cas location, then the logout at both', function () {
  this.timeout(120_000);
  let idp: SimpleSamlPhp | undefined;
  let fixture: CasFixture | undefined;
  let apache: OidcApache | undefined;
  let chromium: HeadlessChromium | undefined;
  let base = '';

  before(async function () {
    skipUnlessChromium(this, 'delegation through SimpleSAMLphp in Chromium');
    skipUnlessInstalled(this, 'SimpleSAMLphp', SIMPLESAMLPHP_PROBES, 'scripts/install-simplesamlphp.sh');
    skipUnlessInstalled(this, 'mod_auth_cas for delegation through SimpleSAMLphp in Chromium', OIDC_APACHE_PROBES);
    const [tesseraPort, idpPort, apachePort] = [await freePort(), await freePort(), await freePort()] as const;
    base = `http://127.0.0.1:${apachePort}`;
    const tessera = `https://127.0.0.1:${tesseraPort}/cas`;
    const folder = mkdtempSync(join(tmpdir(), 'tessera-delegation-ssp-cas-'));
    const started = await startSimpleSamlPhpFor(tessera, PROVIDER, { port: idpPort, folder, users: [{ username: 'student', password: 'studentpass', attributes: { uid: ['student'], mail: ['student@ssp.example'] } }] });
    idp = started.idp;
    const provider = { id: PROVIDER, type: 'saml2', title: 'SimpleSAMLphp', saml2: { metadata: idp.metadataUrl, idpEntityId: idp.entityId, ...started.sp, signAuthnRequests: true }, principalAttribute: 'uid', logout: true };
    fixture = await startCasFixture({
      serviceUrls: [`${base}/cas-app/`],
      browserLogin: true,
      oidc: { port: tesseraPort, clients: [oidcApacheClient(base)] },
      more: { modules: ['delegation'], settings: { delegation: { providers: [provider] } } },
    });
    apache = await startOidcApache({ casUrl: fixture.url, caFile: fixture.caFile, port: apachePort, clientId: 'apache', clientSecret: OIDC_APACHE_SECRET });
    chromium = await launchChromium({ args: [`--ignore-certificate-errors-spki-list=${await spkiHash(fixture.certFile)}`] });
  });
  afterEach(async function () {
    if (idp !== undefined && this.currentTest?.state === 'failed') process.stdout.write(`SimpleSAMLphp's Apache error log:\n${await idp.errorLog()}\ntessera log:\n${fixture?.tessera.logs.slice(-20).join('\n') ?? ''}\n`);
  });
  after(async () => {
    await chromium?.close();
    await apache?.stop();
    await fixture?.close();
    await idp?.stop();
  });

  it('logs in at SimpleSAMLphp from the mod_auth_cas location; the logout at tessera goes through SimpleSAMLphp’s single logout to the logged-out page; then the location and SimpleSAMLphp both ask again', async () => {
    const page = await chromium!.context.newPage();
    const logIn = async () => {
      await page.getByRole('button', { name: 'Log in with SimpleSAMLphp' }).click();
      await page.waitForURL((url) => url.toString().startsWith(idp!.base), { timeout: 15_000 });
      await page.locator('input[name="username"]').fill('student');
      await page.locator('input[name="password"]').fill('studentpass');
      await Promise.all([page.waitForURL((url) => !url.toString().startsWith(idp!.base), { timeout: 20_000 }), page.locator('input[name="password"]').press('Enter')]);
    };
    await page.goto(`${base}/cas-app/`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('Log in');
    await logIn();
    await page.waitForURL(`${base}/cas-app/`, { timeout: 20_000 });
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('CAS app');
    expect(await page.locator('#user').textContent()).to.equal('student');

    const delivered = () => fixture!.tessera.audit.filter((line) => line.includes('"action":"logout.request.delivered"')).length;
    const deliveredBefore = delivered();
    await page.goto(`${fixture!.url}/logout`);
    await page.waitForURL(`${fixture!.url}/logout`, { timeout: 20_000 });
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('You are logged out');
    expect(await page.locator('body').textContent()).to.not.include('did not confirm');
    expect(fixture!.tessera.audit.filter((line) => line.includes('"action":"delegation.logout.failed"'))).to.deep.equal([]);

    // The mod_auth_cas location asks for tessera's login form again, once single logout reached it.
    const deadline = Date.now() + 10_000;
    while (delivered() === deliveredBefore && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    await page.goto(`${base}/cas-app/`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('Log in');
    expect(page.url()).to.match(new RegExp(`^${fixture!.url}/login\\?service=`));
    // SimpleSAMLphp's session ended too: the button leads to its password again.
    await page.getByRole('button', { name: 'Log in with SimpleSAMLphp' }).click();
    await page.waitForURL((url) => url.toString().startsWith(idp!.base), { timeout: 15_000 });
    await page.locator('input[name="password"]').waitFor({ timeout: 15_000 });
  });
});
