import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { freePort } from '@tessera/testkit';
import { overHttps } from '../support/https.js';
import { launchChromium, skipUnlessChromium, spkiHash, type HeadlessChromium } from '../support/chromium.js';
import { startCasFixture, type CasFixture } from './cas-fixture.js';
import { makeTempDir, skipUnlessInstalled, type TempDir } from './harness.js';
import { OIDC_APACHE_PROBES, OIDC_APACHE_SECRET, oidcApacheClient, startOidcApache, type OidcApache } from './oidc-apache.js';
import { MELLON_PROBES, SAML_CAS_PROBES, SAML_SP_INSTALLER, SHIBBOLETH_PROBES, startMellonApache, startShibbolethApache, type SamlSpApache, type SamlSpOptions } from './saml-apache.js';

const SAML_SERVICE = 'org.apereo.cas.support.saml.services.SamlRegisteredService';
const MAIL_OID = 'urn:oid:0.9.2342.19200300.100.1.3';



/** A real SP in Apache beside a mod_auth_cas page, tessera as its IdP, and Chromium: what each scenario needs. */
interface Scene {
  readonly fixture: CasFixture;
  readonly sp: SamlSpApache;
  readonly browser: HeadlessChromium;
  readonly base: string;
  /** mod_auth_openidc (and another mod_auth_cas page) in an Apache of its own, when the scene has it. */
  readonly oidc?: OidcApache;
}

interface SceneOptions {
  /** The SamlRegisteredService of the SP at `base`, its metadata at `metadataFile` (written once the SP made it). */
  definition(base: string, metadataFile: string): Record<string, unknown>;
  startSp(options: SamlSpOptions & { readonly port: number }): Promise<SamlSpApache>;
  /** Also an OpenID Connect client (mod_auth_openidc) of the same tessera. */
  readonly withOidc?: boolean;
}

/**
 * tessera (CAS, login, saml2) on TLS with the SP registered; the SP started on tessera's metadata as
 * fetched from its endpoint, with `/cas-app/` protected by mod_auth_cas in the same Apache; the SP's
 * metadata written where its definition points (tessera reads it at the first request).
 */
async function setUp(options: SceneOptions, folder: TempDir): Promise<Scene> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const metadataFile = join(folder.path, 'sp-metadata.xml');
  const tesseraPort = await freePort();
  const oidcBase = options.withOidc === true ? `http://127.0.0.1:${await freePort()}` : undefined;
  const fixture = await startCasFixture({
    serviceUrls: [`${base}/cas-app/`],
    browserLogin: true,
    saml2: { port: tesseraPort, serviceProviders: [options.definition(base, metadataFile)] },
    ...(oidcBase !== undefined && { oidc: { port: tesseraPort, clients: [oidcApacheClient(oidcBase)] } }),
  });
  let oidc: OidcApache | undefined;
  try {
    if (oidcBase !== undefined) oidc = await startOidcApache({ casUrl: fixture.url, caFile: fixture.caFile, port: Number(new URL(oidcBase).port), clientId: 'apache', clientSecret: OIDC_APACHE_SECRET });
    const metadata = await overHttps(`${fixture.url}/idp/metadata`, { ca: await readFile(fixture.caFile, 'utf8'), method: 'GET' });
    if (metadata.status !== 200) throw new Error(`tessera's metadata answered ${metadata.status}`);
    const sp = await options.startSp({ port, idpMetadata: metadata.body, idpEntityId: `${fixture.url}/idp`, cas: { casUrl: fixture.url, caFile: fixture.caFile } });
    await writeFile(metadataFile, sp.metadata);
    // Chromium has no store for the run's test CA: it accepts tessera's certificate by its key, and nothing else untrusted.
    const browser = await launchChromium({ args: [`--ignore-certificate-errors-spki-list=${await spkiHash(fixture.certFile)}`] }).catch(async (error: unknown) => {
      await sp.stop();
      throw error;
    });
    return { fixture, sp, browser, base, ...(oidc && { oidc }) };
  } catch (error) {
    await oidc?.stop();
    await fixture.close();
    throw error;
  }
}

async function tearDown(scene: Scene | undefined): Promise<void> {
  await scene?.browser.close();
  await scene?.sp.stop();
  await scene?.oidc?.stop();
  await scene?.fixture.close();
}

async function why(scene: Scene, page: Page): Promise<string> {
  const text = await page.locator('body').innerText({ timeout: 2000 }).catch(() => '');
  return `\nat ${page.url()}:\n${text.slice(0, 2000)}\nSP logs:\n${(await scene.sp.logs()).split('\n').slice(-40).join('\n')}\ntessera log:\n${scene.fixture.tessera.logs.slice(-20).join('\n')}`;
}

/** Waits until the browser is at `url`, saying where it is instead when it never gets there. */
async function arrive(scene: Scene, page: Page, url: string): Promise<void> {
  const there = await page.waitForURL(url, { timeout: 15_000 }).then(
    () => true,
    () => false,
  );
  if (!there) throw new Error(`the browser never reached ${url}${await why(scene, page)}`);
}

/** tessera's form, filled as casuser, submitted; resolves once the browser is back at `landing`. */
async function logInThroughTessera(scene: Scene, page: Page, landing: string): Promise<void> {
  expect(await page.getByRole('heading', { level: 1 }).textContent(), await why(scene, page)).to.equal('Log in');
  expect(page.url()).to.match(new RegExp(`^${scene.fixture.url}/login\\?service=`));
  await page.getByLabel('Username').fill('casuser');
  await page.getByLabel('Password').fill('Mellon');
  await Promise.all([arrive(scene, page, landing), page.getByRole('button', { name: 'Log in' }).click()]);
}

/** The mod_auth_cas page opens on the tessera session without the form. */
async function casPageOpensWithoutForm(scene: Scene, page: Page): Promise<void> {
  await page.goto(`${scene.base}/cas-app/`);
  expect(page.url(), await why(scene, page)).to.equal(`${scene.base}/cas-app/`);
  expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('CAS app');
  expect(await page.locator('#REMOTE_USER').textContent()).to.equal('casuser');
}

/** After the SP's logout: tessera's session is gone, so /login and (once CAS single logout reached it) the mod_auth_cas page show the form. */
async function tesseraSessionEnded(scene: Scene, page: Page): Promise<void> {
  await page.goto(`${scene.fixture.url}/login`);
  expect(await page.getByRole('heading', { level: 1 }).textContent(), await why(scene, page)).to.equal('Log in');
  const delivered = () => scene.fixture.tessera.audit.some((line) => line.includes('"action":"logout.request.delivered"'));
  const deadline = Date.now() + 10_000;
  while (!delivered() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  await page.goto(`${scene.base}/cas-app/`);
  expect(await page.getByRole('heading', { level: 1 }).textContent(), await why(scene, page)).to.equal('Log in');
  expect(page.url()).to.match(new RegExp(`^${scene.fixture.url}/login\\?service=`));
  // The SP's own page asks tessera again, which asks for the form.
  await page.goto(`${scene.base}/app/`);
  expect(await page.getByRole('heading', { level: 1 }).textContent(), await why(scene, page)).to.equal('Log in');
}

// docs/modules/saml2.md: Debian's SAML SPs with tessera as their IdP, in a real browser (Debian's
// Chromium, headless): tessera's login form, the released attributes on the SP's page, a mod_auth_cas
// page on the same session without a second login, and the SP's single logout ending tessera's session.
describe('the Shibboleth SP (Debian), mod_auth_cas and mod_auth_openidc on one tessera session, in Chromium', function () {
  this.timeout(120_000);
  let folder: TempDir | undefined;
  let scene: Scene | undefined;

  before(async function () {
    skipUnlessInstalled(this, 'the Shibboleth SP with mod_auth_cas', [...SHIBBOLETH_PROBES, ...SAML_CAS_PROBES], SAML_SP_INSTALLER);
    skipUnlessInstalled(this, 'mod_auth_openidc beside the Shibboleth SP', OIDC_APACHE_PROBES);
    skipUnlessChromium(this, 'the Shibboleth SP in Chromium');
    folder = await makeTempDir('shibboleth-browser');
    const shibdPort = await freePort();
    scene = await setUp(
      {
        // Shibboleth's attribute map knows mail by its OID in the URI name format, and the persistent NameID.
        definition: (base, metadataLocation) => ({
          '@class': SAML_SERVICE,
          id: 60,
          name: 'Shibboleth SP',
          serviceId: `${base}/shibboleth`,
          metadataLocation,
          signAssertions: true,
          requiredNameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
          attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnMappedAttributeReleasePolicy', allowedAttributes: { '@class': 'java.util.TreeMap', mail: MAIL_OID } },
          attributeNameFormats: { '@class': 'java.util.HashMap', [MAIL_OID]: 'uri' },
        }),
        startSp: (options) => startShibbolethApache({ ...options, shibdPort }),
        withOidc: true,
      },
      folder,
    );
  });
  after(async () => {
    await tearDown(scene);
    await folder?.remove();
  });

  it("logs in through tessera's form, shows the released attributes, and opens the mod_auth_cas page and the OIDC client without a second login", async () => {
    const { base, fixture, oidc } = scene!;
    const page = await scene!.browser.context.newPage();
    await page.goto(`${base}/app/`);
    await logInThroughTessera(scene!, page, `${base}/app/`);
    expect(await page.getByRole('heading', { level: 1 }).textContent(), await why(scene!, page)).to.equal('Shibboleth app');
    expect(await page.locator('#mail').textContent()).to.equal('casuser@example.org');
    const persistentId = new RegExp(`^${fixture.url.replace(/[.]/g, '\\.')}/idp!${base.replace(/[.]/g, '\\.')}/shibboleth![A-Za-z0-9+/=]{28}$`);
    expect(await page.locator('#persistent-id').textContent()).to.match(persistentId);
    expect(await page.locator('#REMOTE_USER').textContent()).to.match(persistentId);
    await casPageOpensWithoutForm(scene!, page);
    // The OpenID Connect client: tessera's authorization endpoint finds the session, no form, no consent page.
    await page.goto(`${oidc!.base}/oidc-app/`);
    expect(page.url(), await why(scene!, page)).to.equal(`${oidc!.base}/oidc-app/`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('OIDC app');
    expect(await page.locator('#sub').textContent()).to.equal('casuser');
    expect(await page.locator('#email').textContent()).to.equal('casuser@example.org');
  });

  it("logs out through the SP's /Shibboleth.sso/Logout: tessera's session ends, and the mod_auth_cas page asks for the form again", async () => {
    const { base } = scene!;
    const page = scene!.browser.context.pages().at(-1)!;
    await page.goto(`${base}/Shibboleth.sso/Logout?return=${encodeURIComponent(`${base}/logged-out/`)}`);
    await arrive(scene!, page, `${base}/logged-out/`);
    expect(await page.getByRole('heading', { level: 1 }).textContent(), await why(scene!, page)).to.equal('Logged out');
    await tesseraSessionEnded(scene!, page);
  });
});

describe('mod_auth_mellon (Debian) with encrypted assertions and mod_auth_cas on one tessera session, in Chromium', function () {
  this.timeout(120_000);
  let folder: TempDir | undefined;
  let scene: Scene | undefined;

  before(async function () {
    skipUnlessInstalled(this, 'mod_auth_mellon with mod_auth_cas', [...MELLON_PROBES, ...SAML_CAS_PROBES], SAML_SP_INSTALLER);
    skipUnlessChromium(this, 'mod_auth_mellon in Chromium');
    folder = await makeTempDir('mellon-browser');
    scene = await setUp(
      {
        definition: (base, metadataLocation) => ({
          '@class': SAML_SERVICE,
          id: 61,
          name: 'mod_auth_mellon',
          serviceId: `${base}/mellon/metadata`,
          metadataLocation,
          signAssertions: true,
          encryptAssertions: true,
          attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllowedAttributeReleasePolicy', allowedAttributes: ['java.util.ArrayList', ['mail']] },
        }),
        startSp: startMellonApache,
      },
      folder,
    );
  });
  after(async () => {
    await tearDown(scene);
    await folder?.remove();
  });

  it("logs in through tessera's form, takes the encrypted assertion, shows the attributes, and opens the mod_auth_cas page without a second login", async () => {
    const { base } = scene!;
    const page = await scene!.browser.context.newPage();
    await page.goto(`${base}/app/`);
    await logInThroughTessera(scene!, page, `${base}/app/`);
    expect(await page.getByRole('heading', { level: 1 }).textContent(), await why(scene!, page)).to.equal('Mellon app');
    expect(await page.locator('#MELLON_mail').textContent()).to.equal('casuser@example.org');
    const nameId = await page.locator('#MELLON_NAME_ID').textContent();
    expect(nameId).to.match(/^_[0-9a-f]{40}$/);
    expect(await page.locator('#REMOTE_USER').textContent()).to.equal(nameId);
    await casPageOpensWithoutForm(scene!, page);
  });

  it("logs out through mellon's logout endpoint: tessera's session ends, and the mod_auth_cas page asks for the form again", async () => {
    const { base } = scene!;
    const page = scene!.browser.context.pages().at(-1)!;
    await page.goto(`${base}/mellon/logout?ReturnTo=${encodeURIComponent(`${base}/logged-out/`)}`);
    await arrive(scene!, page, `${base}/logged-out/`);
    expect(await page.getByRole('heading', { level: 1 }).textContent(), await why(scene!, page)).to.equal('Logged out');
    await tesseraSessionEnded(scene!, page);
  });
});
