import { expect } from 'chai';
import { assertionContent, BINDING, chooseNameIdFormat, NAME_ID_FORMAT, nameIdValue, RecordSamlRequestIdStore, samlServiceProviderPolicy, type SamlServiceProvider, type SamlServiceProviderPolicy } from '@tessera/core/modules/saml2';
import { cryptoRandomSource, systemClock } from '@tessera/core';
import { idpMetadataXml, readSpMetadata, receiveAuthnRequest, responseProtection, responseXml } from '@tessera/adapter-koa/modules/saml2';
import { freePort, MapRecordStores } from '@tessera/testkit';
import { samlCredential, type SamlCredential } from '@tessera/testkit/modules/saml2';
import { skipUnlessInstalled } from './harness.js';
import { MELLON_PROBES, SAML_SP_INSTALLER, SHIBBOLETH_PROBES, startMellonApache, startShibbolethApache, type SamlSpApache } from './saml-apache.js';

// tessera's IdP, as the SPs are configured with it: its metadata (made by the module's own builder) as a file.
const IDP_BASE = 'https://127.0.0.1:9443/cas';
const IDP_ID = `${IDP_BASE}/idp`;
const REDIRECT_SSO = `${IDP_BASE}/idp/profile/SAML2/Redirect/SSO`;
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const SETTINGS = { maxMessageBytes: 65_536, signatureAlgorithms: [RSA_SHA256, 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512'] as const, skewSeconds: 60, maxAgeSeconds: 300 };

/** The IdP's keys of this run: the SPs trust the signing one through the metadata. */
let idpKeys: Promise<{ signing: SamlCredential; encryption: SamlCredential }> | undefined;

async function idpMetadata(): Promise<string> {
  idpKeys ??= Promise.all([samlCredential('CN=tessera idp'), samlCredential('CN=tessera idp encryption')]).then(([signing, encryption]) => ({ signing, encryption }));
  const { signing, encryption } = await idpKeys;
  return idpMetadataXml({
    entityId: IDP_ID,
    baseUrl: IDP_BASE,
    signingKeys: [{ state: 'current', ...signing }],
    encryptionKeys: [{ state: 'current', ...encryption }],
    wantAuthnRequestsSigned: false,
    validSeconds: 3600,
    now: Date.now(),
  });
}

/** The SP registered from the metadata it makes itself, read by tessera as an operator's file would be. */
function registered(sp: SamlSpApache, policy: Partial<SamlServiceProviderPolicy> = {}): SamlServiceProvider {
  const metadata = readSpMetadata(sp.metadata, { entityId: sp.entityId, signatureAlgorithms: SETTINGS.signatureAlgorithms, maxBytes: 1024 * 1024, now: Date.now() });
  return { metadata, policy: samlServiceProviderPolicy(policy) };
}

/** Cookies as a browser keeps them for the SP's one host: name → value, from every answer's Set-Cookie. */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  keep(answer: Response): void {
    for (const line of answer.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1).trim());
    }
  }

  get header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * Follows the SP's redirects (never leaving it) from a protected page to the IdP's SSO endpoint, and
 * returns that URL: what a browser would be sent to.
 */
async function authnRequestUrl(sp: SamlSpApache, jar = new CookieJar()): Promise<string> {
  let url = `${sp.base}/app/`;
  for (let hop = 0; hop < 5; hop++) {
    const answer = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header } });
    jar.keep(answer);
    const location = answer.headers.get('location');
    if (answer.status < 300 || answer.status > 399 || location === null) throw new Error(`${url} answered ${answer.status} without a redirect:\n${await sp.logs()}`);
    url = new URL(location, url).href;
    if (url.startsWith(REDIRECT_SSO)) return url;
  }
  throw new Error(`the SP never sent the browser to the IdP:\n${await sp.logs()}`);
}

async function receive(sp: SamlSpApache, url: string, policy: Partial<SamlServiceProviderPolicy> = {}) {
  const registration = registered(sp, policy);
  const records = new MapRecordStores(systemClock);
  return {
    registration,
    records,
    received: await receiveAuthnRequest({ binding: BINDING.redirect, rawQuery: url.slice(url.indexOf('?') + 1) }, REDIRECT_SSO, [BINDING.post], SETTINGS, {
      serviceProvider: (entityId) => Promise.resolve(entityId === registration.metadata.entityId ? registration : undefined),
      requestIds: new RecordSamlRequestIdStore(records),
      now: () => Date.now(),
    }),
  };
}

const USER = { username: 'casuser', attributes: { mail: ['casuser@example.org'] } };

/**
 * What the browser then brings the SP from tessera: the Response to its request, built by the module
 * for the released user, protected as the SP's definition says, posted to the ACS the request named
 * (HTTP-POST binding, with the RelayState). Returns the SP's answer to the page it protects.
 */
async function logIn(sp: SamlSpApache, policy: Partial<SamlServiceProviderPolicy>, attributeNames: Readonly<Record<string, string>> = {}): Promise<{ page: string; status: number }> {
  const jar = new CookieJar();
  const { received, registration } = await receive(sp, await authnRequestUrl(sp, jar), policy);
  const keys = await idpKeys!;
  const now = Date.now();
  const format = chooseNameIdFormat(registration, received.message.nameIdPolicy);
  const user = { ...USER, attributes: Object.fromEntries(Object.entries(USER.attributes).map(([name, values]) => [attributeNames[name] ?? name, values])) };
  const content = assertionContent({
    idpEntityId: IDP_ID,
    sp: registration,
    request: received.message,
    assertionConsumerService: received.assertionConsumerService,
    user,
    nameId: { value: nameIdValue(format, user, registration.metadata.entityId, { persistentIdSalt: 'a salt of this test run, long enough', random: cryptoRandomSource }), format, nameQualifier: IDP_ID, spNameQualifier: registration.metadata.entityId },
    authenticatedAt: now - 2000,
    sessionIndex: '_session-of-the-test',
    contextClassRef: 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport',
    now,
    lifetimeSeconds: 300,
    skewSeconds: 30,
    random: cryptoRandomSource,
  });
  const xml = await responseXml(content, responseProtection(registration, keys.signing));
  const form = new URLSearchParams({ SAMLResponse: Buffer.from(xml).toString('base64'), ...(received.relayState !== undefined && { RelayState: received.relayState }) });
  let answer = await fetch(received.assertionConsumerService.location, { method: 'POST', body: form, redirect: 'manual', headers: { cookie: jar.header, 'content-type': 'application/x-www-form-urlencoded' } });
  jar.keep(answer);
  for (let hop = 0; hop < 3 && answer.status >= 300 && answer.status < 400; hop++) {
    answer = await fetch(new URL(answer.headers.get('location')!, received.assertionConsumerService.location), { redirect: 'manual', headers: { cookie: jar.header } });
    jar.keep(answer);
  }
  return { page: await answer.text(), status: answer.status };
}

// docs/modules/saml2.md: real SPs from Debian, started on configurations the tests write, with
// tessera's IdP metadata as a file. Each sends the browser to tessera's SSO endpoint with an
// AuthnRequest that tessera reads and verifies against the metadata the SP makes itself.
describe('mod_auth_mellon (Debian) sends an AuthnRequest tessera reads and verifies', function () {
  this.timeout(60_000);
  let sp: SamlSpApache | undefined;

  before(async function () {
    skipUnlessInstalled(this, 'mod_auth_mellon', MELLON_PROBES, SAML_SP_INSTALLER);
    sp = await startMellonApache({ port: await freePort(), idpMetadata: await idpMetadata(), idpEntityId: IDP_ID });
  });
  after(() => sp?.stop());

  it('loads tessera\'s metadata, signs its request over HTTP-Redirect with the key of its metadata, names an ACS its metadata lists', async () => {
    const registration = registered(sp!);
    expect(registration.metadata.authnRequestsSigned).to.equal(true);
    const url = await authnRequestUrl(sp!);
    const { received, records } = await receive(sp!, url);
    expect(received.signed, await sp!.logs()).to.equal(true);
    expect(new URL(url).searchParams.get('SigAlg')).to.equal(RSA_SHA256);
    expect(received.message.issuer).to.equal(sp!.entityId);
    expect(received.message.destination).to.equal(REDIRECT_SSO);
    expect(received.assertionConsumerService).to.deep.include({ binding: BINDING.post, location: `${sp!.base}/mellon/postResponse` });
    expect(received.message.nameIdPolicy?.format).to.equal(NAME_ID_FORMAT.transient);
    expect(received.relayState).to.be.a('string');
    expect(records.namespaces.get('saml2.request-ids')?.size).to.equal(1);
    // The SP's request, tampered with on the way, no longer verifies.
    const tampered = url.replace(/RelayState=[^&]*/, 'RelayState=elsewhere');
    const refused = await receive(sp!, tampered).catch((error: Error) => error);
    expect(refused).to.be.instanceOf(Error).with.property('message', "The signature does not verify with the peer's certificates");
  });

  it("takes tessera's signed Response with the assertion encrypted for its key, and shows the user's NameID and attributes", async () => {
    const { page, status } = await logIn(sp!, { encryptAssertions: true });
    expect(status, `${page}\n${await sp!.logs()}`).to.equal(200);
    expect(page).to.contain('<h1>Mellon app</h1>');
    expect(page).to.match(/<p id="MELLON_NAME_ID">_[0-9a-f]{40}<\/p>/);
    expect(page).to.contain('<p id="MELLON_mail">casuser@example.org</p>');
  });
});

describe('the Shibboleth SP (Debian, mod_shib with shibd) sends an AuthnRequest tessera reads and verifies', function () {
  this.timeout(90_000);
  let sp: SamlSpApache | undefined;

  before(async function () {
    skipUnlessInstalled(this, 'the Shibboleth SP', SHIBBOLETH_PROBES, SAML_SP_INSTALLER);
    sp = await startShibbolethApache({ port: await freePort(), shibdPort: await freePort(), idpMetadata: await idpMetadata(), idpEntityId: IDP_ID });
  });
  after(() => sp?.stop());

  it("validates tessera's metadata against SAML's schema, signs its request, asks for the POST ACS of its own metadata", async () => {
    const registration = registered(sp!);
    expect(registration.metadata.assertionConsumerServices.map((endpoint) => endpoint.binding)).to.include(BINDING.post);
    const url = await authnRequestUrl(sp!);
    const { received } = await receive(sp!, url);
    expect(received.signed, await sp!.logs()).to.equal(true);
    expect(received.message.issuer).to.equal(sp!.entityId);
    expect(received.message.protocolBinding).to.equal(BINDING.post);
    expect(received.assertionConsumerService).to.deep.include({ binding: BINDING.post, location: `${sp!.base}/Shibboleth.sso/SAML2/POST` });
    expect(received.message.nameIdPolicy?.allowCreate).to.equal(true);
    expect(received.relayState).to.match(/^ss:mem:/);
  });

  it("takes tessera's signed Response with an encrypted assertion, and shows the persistent NameID and the mapped attributes", async () => {
    // Its attribute map knows mail by its OID, in the URI name format; it asks for no NameID format, so the definition requires one.
    const policy = { encryptAssertions: true, requiredNameIdFormat: NAME_ID_FORMAT.persistent, attributeNameFormats: { 'urn:oid:0.9.2342.19200300.100.1.3': 'uri' } };
    const { page, status } = await logIn(sp!, policy, { mail: 'urn:oid:0.9.2342.19200300.100.1.3' });
    expect(status, `${page}\n${await sp!.logs()}`).to.equal(200);
    expect(page).to.contain('<h1>Shibboleth app</h1>');
    expect(page).to.contain('<p id="mail">casuser@example.org</p>');
    expect(page).to.match(/<p id="persistent-id">https:\/\/127\.0\.0\.1:9443\/cas\/idp!http:\/\/127\.0\.0\.1:\d+\/shibboleth![A-Za-z0-9+/=]{28}<\/p>/);
  });
});
