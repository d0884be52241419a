import { expect } from 'chai';
import { BINDING } from '@tessera/core/modules/saml2';
import { FixedClock } from '@tessera/testkit';
import {
  idpMetadataXml,
  InboundRefusal,
  MetadataError,
  parseXml,
  readSpMetadata,
  receiveAuthnRequest,
  serviceProviderLookup,
  SpMetadataResolver,
  verifyEnvelopedSignature,
  type MetadataAccess,
} from '@tessera/adapter-koa/modules/saml2';
import { ANSWERED, credentials, IDP_BASE, IDP_ID, inboundDependencies, rawQueryOf, REDIRECT_SSO, scriptedSp, SETTINGS, SP_ID, type Credentials } from './saml2-fixture.js';

const URL = 'https://federation.example.org/metadata/sp.xml';
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';

/** The metadata node-saml publishes, signed with the SP's key when `signed` (node-saml signs its own). */
function spMetadata(keys: Credentials, signed: boolean): string {
  return scriptedSp(keys, signed ? { signMetadata: true } : {}).generateServiceProviderMetadata(keys.spEncryption.certificate, keys.sp.certificate);
}

/** An access whose files and URLs a test sets, counting downloads, on a clock it moves. */
function access(clock: FixedClock, files: Record<string, string>, urls: Record<string, string | Error>) {
  const downloads: string[] = [];
  const fake: MetadataAccess = {
    download: (url) => {
      downloads.push(url);
      const body = urls[url];
      if (body === undefined) return Promise.reject(new Error('it answered 404'));
      return body instanceof Error ? Promise.reject(body) : Promise.resolve(body);
    },
    readFile: (path) => (path in files ? Promise.resolve(files[path]!) : Promise.reject(Object.assign(new Error('no file'), { code: 'ENOENT' }))),
    now: () => clock.now(),
  };
  return { fake, downloads };
}

async function refusal(run: Promise<unknown>): Promise<string> {
  try {
    await run;
  } catch (error) {
    if (error instanceof MetadataError) return error.reason;
    throw error;
  }
  throw new Error('expected a refusal');
}

const settings = { cacheSeconds: 3600, maxBytes: 1024 * 1024, signatureAlgorithms: SETTINGS.signatureAlgorithms };

describe('saml2: SP metadata from a file or an https metadataLocation, fetched, cached and signature-checked', () => {
  it('fetches https metadata once, keeps it for the cache time, then fetches again; concurrent requests share one fetch', async () => {
    const keys = await credentials();
    const clock = new FixedClock(Date.now());
    const { fake, downloads } = access(clock, {}, { [URL]: spMetadata(keys, false) });
    const resolver = new SpMetadataResolver(settings, fake);
    const [first, second] = await Promise.all([resolver.resolve({ entityId: SP_ID, metadataLocation: URL }), resolver.resolve({ entityId: SP_ID, metadataLocation: URL })]);
    expect(first.assertionConsumerServices[0]?.binding).to.equal(BINDING.post);
    expect(second).to.equal(first);
    expect(downloads).to.have.length(1);
    clock.advanceSeconds(3599);
    await resolver.resolve({ entityId: SP_ID, metadataLocation: URL });
    expect(downloads).to.have.length(1);
    clock.advanceSeconds(2);
    await resolver.resolve({ entityId: SP_ID, metadataLocation: URL });
    expect(downloads).to.have.length(2);
  });

  it('checks the signature with the certificate of metadataSignatureLocation: signed passes, tampered, unsigned or signed by another key does not', async () => {
    const keys = await credentials();
    const clock = new FixedClock(Date.now());
    const signed = spMetadata(keys, true);
    const tampered = signed.replace('https://sp.example.org/login/callback', 'https://evil.example.org/acs');
    const { fake } = access(clock, { '/etc/tessera/sp-signer.pem': keys.sp.certificate, '/etc/tessera/stranger.pem': keys.stranger.certificate, '/etc/tessera/junk.pem': 'no certificate' }, {
      [URL]: signed,
      'https://federation.example.org/tampered.xml': tampered,
      'https://federation.example.org/unsigned.xml': spMetadata(keys, false),
    });
    const resolver = new SpMetadataResolver(settings, fake);
    const metadata = await resolver.resolve({ entityId: SP_ID, metadataLocation: URL, metadataSignatureLocation: '/etc/tessera/sp-signer.pem' });
    expect(metadata.assertionConsumerServices[0]?.location).to.equal('https://sp.example.org/login/callback');
    expect(await refusal(resolver.resolve({ entityId: SP_ID, metadataLocation: 'https://federation.example.org/tampered.xml', metadataSignatureLocation: '/etc/tessera/sp-signer.pem' }))).to.equal(
      "The signature does not verify with the peer's certificates",
    );
    expect(await refusal(resolver.resolve({ entityId: SP_ID, metadataLocation: 'https://federation.example.org/unsigned.xml', metadataSignatureLocation: '/etc/tessera/sp-signer.pem' }))).to.equal(
      'The metadata is not signed, and its definition names the certificate it must be signed with',
    );
    expect(await refusal(resolver.resolve({ entityId: SP_ID, metadataLocation: URL, metadataSignatureLocation: '/etc/tessera/stranger.pem' }))).to.equal("The signature does not verify with the peer's certificates");
    expect(await refusal(resolver.resolve({ entityId: SP_ID, metadataLocation: URL, metadataSignatureLocation: '/etc/tessera/junk.pem' }))).to.equal('metadataSignatureLocation /etc/tessera/junk.pem holds no PEM certificate');
    expect(await refusal(resolver.resolve({ entityId: SP_ID, metadataLocation: URL, metadataSignatureLocation: '/etc/tessera/none.pem' }))).to.equal('metadataSignatureLocation /etc/tessera/none.pem cannot be read (ENOENT)');
  });

  it('serves what it fetched while a later fetch fails and the metadata is valid, then refuses, naming why', async () => {
    const keys = await credentials();
    const clock = new FixedClock(Date.now());
    const valid = spMetadata(keys, false).replace(`entityID="${SP_ID}"`, `entityID="${SP_ID}" validUntil="${new Date(clock.now() + 7200_000).toISOString()}"`);
    const urls: Record<string, string | Error> = { [URL]: valid };
    const { fake, downloads } = access(clock, {}, urls);
    const resolver = new SpMetadataResolver(settings, fake);
    await resolver.resolve({ entityId: SP_ID, metadataLocation: URL });
    urls[URL] = new Error('it answered 503');
    clock.advanceSeconds(3601);
    expect((await resolver.resolve({ entityId: SP_ID, metadataLocation: URL })).entityId).to.equal(SP_ID);
    expect(downloads).to.have.length(2);
    clock.advanceSeconds(3600);
    expect(await refusal(resolver.resolve({ entityId: SP_ID, metadataLocation: URL }))).to.equal(`The metadata of ${SP_ID} could not be fetched from ${URL}: it answered 503`);
  });

  it('refuses expired metadata, another entity, an http or other URL, an unreadable file; reads a file, and an aggregate', async () => {
    const keys = await credentials();
    const clock = new FixedClock(Date.now());
    const plain = spMetadata(keys, false);
    const expired = plain.replace(`entityID="${SP_ID}"`, `entityID="${SP_ID}" validUntil="${new Date(clock.now() - 1000).toISOString()}"`);
    const aggregate = `<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" Name="federation"><md:EntitiesDescriptor>${plain.replace(/^<\?xml[^>]*\?>/, '')}</md:EntitiesDescriptor></md:EntitiesDescriptor>`;
    const { fake } = access(clock, { '/etc/tessera/sp.xml': plain, '/etc/tessera/expired.xml': expired, '/etc/tessera/all.xml': aggregate }, {});
    const resolver = new SpMetadataResolver(settings, fake);
    expect((await resolver.resolve({ entityId: SP_ID, metadataLocation: '/etc/tessera/sp.xml' })).signingCertificates).to.have.length(1);
    expect((await resolver.resolve({ entityId: SP_ID, metadataLocation: 'file:///etc/tessera/all.xml' })).entityId).to.equal(SP_ID);
    expect(await refusal(resolver.resolve({ entityId: SP_ID, metadataLocation: '/etc/tessera/expired.xml' }))).to.match(/^The metadata expired at /);
    expect(await refusal(resolver.resolve({ entityId: 'https://other.example.org/sp', metadataLocation: '/etc/tessera/sp.xml' }))).to.equal('The metadata holds no EntityDescriptor for https://other.example.org/sp');
    expect(await refusal(resolver.resolve({ entityId: SP_ID, metadataLocation: 'http://federation.example.org/sp.xml' }))).to.equal('metadataLocation http://federation.example.org/sp.xml is neither a file nor an https URL');
    expect(await refusal(resolver.resolve({ entityId: SP_ID, metadataLocation: '/etc/tessera/missing.xml' }))).to.equal('metadataLocation /etc/tessera/missing.xml cannot be read (ENOENT)');
    expect(await refusal(resolver.resolve({ entityId: SP_ID, metadataLocation: 'https://federation.example.org/none.xml' }))).to.equal(`The metadata of ${SP_ID} could not be fetched from https://federation.example.org/none.xml: it answered 404`);
  });

  it('reads what an SP metadata file says of its endpoints, keys and NameID formats, and refuses a broken certificate or endpoint', () => {
    const xml = `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${SP_ID}">
  <md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:1.1:protocol urn:oasis:names:tc:SAML:2.0:protocol" AuthnRequestsSigned="1" WantAssertionsSigned="true">
    <md:KeyDescriptor use="encryption"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>CERT</ds:X509Certificate></ds:X509Data></ds:KeyInfo>
      <md:EncryptionMethod Algorithm="http://www.w3.org/2009/xmlenc11#aes128-gcm"/></md:KeyDescriptor>
    <md:SingleLogoutService Binding="${BINDING.redirect}" Location="https://sp.example.org/slo" ResponseLocation="https://sp.example.org/slo/response"/>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:transient</md:NameIDFormat>
    <md:AssertionConsumerService Binding="${BINDING.post}" Location="https://sp.example.org/acs" index="0"/>
    <md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Artifact" Location="https://sp.example.org/artifact" index="1" isDefault="true"/>
  </md:SPSSODescriptor>
</md:EntityDescriptor>`;
    const reading = { entityId: SP_ID, signatureAlgorithms: SETTINGS.signatureAlgorithms, maxBytes: 65536, now: Date.now() };
    return credentials().then((keys) => {
      const metadata = readSpMetadata(xml.replace('CERT', keys.spEncryption.certificate.replace(/-----[A-Z ]+-----|\s/g, '')), reading);
      expect(metadata).to.deep.include({ authnRequestsSigned: true, wantAssertionsSigned: true, encryptionMethods: ['http://www.w3.org/2009/xmlenc11#aes128-gcm'], signingCertificates: [], nameIdFormats: ['urn:oasis:names:tc:SAML:2.0:nameid-format:transient'] });
      expect(metadata.encryptionCertificates).to.have.length(1);
      expect(metadata.singleLogoutServices).to.deep.equal([{ binding: BINDING.redirect, location: 'https://sp.example.org/slo', responseLocation: 'https://sp.example.org/slo/response' }]);
      expect(metadata.assertionConsumerServices.map((endpoint) => [endpoint.index, endpoint.isDefault])).to.deep.equal([[0, undefined], [1, true]]);
      expect(() => readSpMetadata(xml.replace('CERT', 'bm90IGEgY2VydGlmaWNhdGU='), reading)).to.throw(MetadataError, 'A KeyDescriptor holds an X509Certificate that is no certificate');
      expect(() => readSpMetadata(xml.replace('CERT', 'AAAA').replace(' Location="https://sp.example.org/acs"', ''), reading)).to.throw(MetadataError);
      expect(() => readSpMetadata(xml.replace('urn:oasis:names:tc:SAML:1.1:protocol urn:oasis:names:tc:SAML:2.0:protocol', 'urn:oasis:names:tc:SAML:1.1:protocol'), reading)).to.throw(MetadataError, `${SP_ID} has no SPSSODescriptor for SAML 2.0`);
    });
  });

  it('reads the entity attributes of the EntityDescriptor (its entity categories), each name with every value; none when it has none', () => {
    const category = (values: string) =>
      `<md:Extensions><mdattr:EntityAttributes xmlns:mdattr="urn:oasis:names:tc:SAML:metadata:attribute">` +
      `<saml:Attribute xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" Name="http://macedir.org/entity-category" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:uri">${values}</saml:Attribute>` +
      `</mdattr:EntityAttributes></md:Extensions>`;
    const xml = (extensions: string) =>
      `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${SP_ID}">${extensions}` +
      `<md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><md:AssertionConsumerService Binding="${BINDING.post}" Location="https://sp.example.org/acs" index="0"/></md:SPSSODescriptor></md:EntityDescriptor>`;
    const reading = { entityId: SP_ID, signatureAlgorithms: SETTINGS.signatureAlgorithms, maxBytes: 65536, now: Date.now() };
    const values = '<saml:AttributeValue>http://refeds.org/category/research-and-scholarship</saml:AttributeValue><saml:AttributeValue>http://id.incommon.org/category/research-and-scholarship</saml:AttributeValue>';
    expect(readSpMetadata(xml(category(values)), reading).entityAttributes).to.deep.equal({
      'http://macedir.org/entity-category': ['http://refeds.org/category/research-and-scholarship', 'http://id.incommon.org/category/research-and-scholarship'],
    });
    expect(readSpMetadata(xml(''), reading).entityAttributes).to.equal(undefined);
    expect(() => readSpMetadata(xml(category(values).replace(' Name="http://macedir.org/entity-category"', '')), reading)).to.throw(MetadataError, 'An EntityAttributes Attribute has no Name');
  });
});

describe('saml2: SPs by their definitions (Apereo SamlRegisteredService keys)', () => {
  it("finds the SP of a request by its serviceId, its metadata resolved and its policy defaulted as Apereo's; refuses one whose metadata cannot be had", async () => {
    const keys = await credentials();
    const clock = new FixedClock(Date.now());
    const saml = scriptedSp(keys);
    const metadata = saml.generateServiceProviderMetadata(keys.spEncryption.certificate, keys.sp.certificate);
    const { fake } = access(clock, { '/etc/tessera/sp.xml': metadata }, {});
    const definitions = [{ serviceId: SP_ID, metadataLocation: '/etc/tessera/sp.xml', encryptAssertions: true, skewAllowanceSeconds: 30 }];
    const lookup = serviceProviderLookup(() => Promise.resolve(definitions), new SpMetadataResolver(settings, fake));
    const sp = await lookup(SP_ID);
    expect(sp?.policy).to.deep.include({ signResponses: true, signAssertions: false, encryptAssertions: true, skewAllowanceSeconds: 30, signingSignatureAlgorithms: [RSA_SHA256] });
    expect(sp?.metadata.assertionConsumerServices).to.have.length(1);
    expect(await lookup('https://unknown.example.org/sp')).to.equal(undefined);

    const url = await saml.getAuthorizeUrlAsync('', undefined, {});
    const received = await receiveAuthnRequest({ binding: BINDING.redirect, rawQuery: rawQueryOf(url) }, REDIRECT_SSO, ANSWERED, SETTINGS, { ...inboundDependencies(undefined), serviceProvider: lookup });
    expect(received.sp.policy.encryptAssertions).to.equal(true);
    const broken = serviceProviderLookup(() => Promise.resolve([{ serviceId: SP_ID, metadataLocation: '/etc/tessera/gone.xml' }]), new SpMetadataResolver(settings, fake));
    const refused = await receiveAuthnRequest({ binding: BINDING.redirect, rawQuery: rawQueryOf(await saml.getAuthorizeUrlAsync('', undefined, {})) }, REDIRECT_SSO, ANSWERED, SETTINGS, { ...inboundDependencies(undefined), serviceProvider: broken }).catch((error: unknown) => error);
    expect(refused).to.be.instanceOf(InboundRefusal).with.property('reason', 'metadataLocation /etc/tessera/gone.xml cannot be read (ENOENT)');
  });
});

describe("saml2: the IdP's own metadata", () => {
  it('lists every published certificate, the endpoints over both bindings and the NameID formats; signed, it verifies with the signing key', async () => {
    const keys = await credentials();
    const now = Date.now();
    const signingKeys = [
      { state: 'current' as const, ...keys.idp },
      { state: 'next' as const, ...keys.stranger },
    ];
    const xml = idpMetadataXml({
      entityId: IDP_ID,
      baseUrl: IDP_BASE,
      signingKeys,
      encryptionKeys: [{ state: 'current', ...keys.idpEncryption }],
      wantAuthnRequestsSigned: false,
      validSeconds: 86_400,
      now,
      signWith: { credential: keys.idp, algorithm: RSA_SHA256, id: '_metadata' },
    });
    const document = parseXml(xml, 1024 * 1024);
    const signature = document.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'Signature').item(0)!;
    expect(signature.parentNode).to.equal(document.documentElement);
    expect(document.documentElement.firstChild).to.equal(signature);
    const covered = verifyEnvelopedSignature(xml, document, signature, [keys.idp.certificate], SETTINGS.signatureAlgorithms, 1024 * 1024);
    expect(covered.getAttribute('entityID')).to.equal(IDP_ID);
    expect(covered.getAttribute('validUntil')).to.equal(new Date(now + 86_400_000).toISOString());
    const all = (name: string) => {
      const list = covered.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:metadata', name);
      return Array.from({ length: list.length }, (_, index) => list.item(index)!);
    };
    const uses = all('KeyDescriptor').map((element) => element.getAttribute('use'));
    expect(uses).to.deep.equal(['signing', 'signing', 'encryption']);
    // The encryption key names the algorithms tessera decrypts, so an SP encrypting an EncryptedID picks one of them.
    const methods = all('EncryptionMethod').map((element) => [(element.parentNode as Element).getAttribute('use'), element.getAttribute('Algorithm')]);
    expect(methods).to.deep.equal([
      ['encryption', 'http://www.w3.org/2009/xmlenc11#aes256-gcm'],
      ['encryption', 'http://www.w3.org/2009/xmlenc11#aes128-gcm'],
    ]);
    const endpoints = all('SingleSignOnService').map((element) => element.getAttribute('Location'));
    expect(endpoints).to.deep.equal([`${IDP_BASE}/idp/profile/SAML2/Redirect/SSO`, `${IDP_BASE}/idp/profile/SAML2/POST/SSO`]);
    expect(all('NameIDFormat').map((element) => element.textContent)).to.have.length(4);
    expect(all('SingleLogoutService').map((element) => element.getAttribute('Binding'))).to.deep.equal([BINDING.redirect, BINDING.post]);
  });
});
