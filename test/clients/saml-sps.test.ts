import { expect } from 'chai';
import { BINDING, NAME_ID_FORMAT, RecordSamlRequestIdStore, samlServiceProviderPolicy, type SamlServiceProvider } from '@tessera/core/modules/saml2';
import { systemClock } from '@tessera/core';
import { idpMetadataXml, readSpMetadata, receiveAuthnRequest } from '@tessera/adapter-koa/modules/saml2';
import { freePort, MapRecordStores } from '@tessera/testkit';
import { samlCredential } from '@tessera/testkit/modules/saml2';
import { skipUnlessInstalled } from './harness.js';
import { MELLON_PROBES, SAML_SP_INSTALLER, SHIBBOLETH_PROBES, startMellonApache, startShibbolethApache, type SamlSpApache } from './saml-apache.js';

// tessera's IdP, as the SPs are configured with it: its metadata (made by the module's own builder) as a file.
const IDP_BASE = 'https://127.0.0.1:9443/cas';
const IDP_ID = `${IDP_BASE}/idp`;
const REDIRECT_SSO = `${IDP_BASE}/idp/profile/SAML2/Redirect/SSO`;
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const SETTINGS = { maxMessageBytes: 65_536, signatureAlgorithms: [RSA_SHA256, 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512'] as const, skewSeconds: 60, maxAgeSeconds: 300 };

async function idpMetadata(): Promise<string> {
  const [signing, encryption] = await Promise.all([samlCredential('CN=tessera idp'), samlCredential('CN=tessera idp encryption')]);
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
function registered(sp: SamlSpApache): SamlServiceProvider {
  const metadata = readSpMetadata(sp.metadata, { entityId: sp.entityId, signatureAlgorithms: SETTINGS.signatureAlgorithms, maxBytes: 1024 * 1024, now: Date.now() });
  return { metadata, policy: samlServiceProviderPolicy() };
}

/**
 * Follows the SP's redirects (never leaving it) from a protected page to the IdP's SSO endpoint, and
 * returns that URL: what a browser would be sent to.
 */
async function authnRequestUrl(sp: SamlSpApache): Promise<string> {
  let url = `${sp.base}/app/`;
  for (let hop = 0; hop < 5; hop++) {
    const answer = await fetch(url, { redirect: 'manual' });
    const location = answer.headers.get('location');
    if (answer.status < 300 || answer.status > 399 || location === null) throw new Error(`${url} answered ${answer.status} without a redirect:\n${await sp.logs()}`);
    url = new URL(location, url).href;
    if (url.startsWith(REDIRECT_SSO)) return url;
  }
  throw new Error(`the SP never sent the browser to the IdP:\n${await sp.logs()}`);
}

async function receive(sp: SamlSpApache, url: string) {
  const registration = registered(sp);
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
});
