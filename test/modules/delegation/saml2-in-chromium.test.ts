import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import * as client from 'openid-client';
import type { Page } from 'playwright-core';
import { samlCredential } from '@tessera/testkit/modules/saml2';
import { skipUnlessInstalled } from '../../clients/harness.js';
import { launchChromium, skipUnlessChromium, startAppPages, type AppPages, type HeadlessChromium } from '../../support/chromium.js';
import type { Tessera } from '../../support/tessera.js';
import { validate } from '../login/support.js';
import { CLIENT_ID, CLIENT_SECRET, RP_SERVICE } from '../oidc/support.js';
import { freePort, startDelegation } from './support.js';
import { SIMPLESAMLPHP_PROBES, startSimpleSamlPhp, type SimpleSamlPhp } from './simplesamlphp.js';

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
    const sp = await samlCredential('CN=tessera as SP');
    writeFileSync(join(folder, 'sp.key'), sp.privateKey, { mode: 0o600 });
    writeFileSync(join(folder, 'sp.crt'), sp.certificate);
    idp = await startSimpleSamlPhp({
      port: idpPort,
      idp: await samlCredential('CN=simplesamlphp idp'),
      sp: { entityId: `${origin}/cas/delegation/saml2/${PROVIDER}/metadata`, assertionConsumerService: `${origin}/cas/delegation/callback/${PROVIDER}`, certificate: sp.certificate, singleLogoutService: `${origin}/cas/delegation/logout` },
      users: [{ username: 'student', password: 'studentpass', attributes: { uid: ['student'], mail: ['student@ssp.example'], eduPersonAffiliation: ['member', 'student'] } }],
    });
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
            saml2: { metadata: idp.metadataUrl, idpEntityId: idp.entityId, keyFile: join(folder, 'sp.key'), certificateFile: join(folder, 'sp.crt'), signAuthnRequests: true },
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
