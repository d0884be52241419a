import { mkdtempSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { expect } from 'chai';
import { envelopedSignatureOf, logoutResponseXml, parseXml, redirectUrl, signEnveloped, verifyEnvelopedSignature } from '@tessera/adapter-koa/modules/saml2';
import { encrypt } from 'xml-encryption';
import { Secret, TOTP } from 'otpauth';
import type { Profile, SAML } from '@node-saml/node-saml';
import { describeWithRedis } from '@tessera/testkit/redis';
import type { Tessera } from '../../support/tessera.js';
import { freePort } from '../oidc/support.js';
import { acsOf, CAS, logoutReceiver, postedResponse, sloOf, idpOf, scriptedSp, spEntityId, spKeys, SpreadBrowser, spService, startSaml, statusOf, walk, writeSpMetadata, type Idp, type SpKeys, type Walk } from './support.js';

const OTP_SECRET = new Secret({ size: 20 }).base32;
const CASUSER = ['casuser', 'Mellon'] as const;
const ALICE = ['alice', 'secret'] as const;
const DENIED_PAGE = 'https://help.example.org/denied';
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const requiring = (values: Record<string, string[]>, more: Record<string, unknown> = {}) => ({
  '@class': `${CAS}.DefaultRegisteredServiceAccessStrategy`,
  requiredAttributes: { '@class': 'java.util.HashMap', ...Object.fromEntries(Object.entries(values).map(([name, list]) => [name, ['java.util.HashSet', list]])) },
  ...more,
});

/** A PEM certificate of the base64 DER an X509Certificate element holds. */
function certificateOf(body: string): string {
  return `-----BEGIN CERTIFICATE-----\n${body.replace(/\s+/g, '').replace(/(.{64})/g, '$1\n').trim()}\n-----END CERTIFICATE-----\n`;
}

/** A NameID encrypted for a certificate's key, as an SP encrypts it: AES-256-GCM for the data, RSA-OAEP for the key. */
function encryptedNameId(nameId: { readonly value: string; readonly format: string }, certificate: string): Promise<string> {
  const nameIdXml = `<saml:NameID xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" Format="${nameId.format}">${nameId.value}</saml:NameID>`;
  return new Promise((resolve, reject) =>
    encrypt(
      nameIdXml,
      { rsa_pub: certificate, pem: certificate, encryptionAlgorithm: 'http://www.w3.org/2009/xmlenc11#aes256-gcm', keyEncryptionAlgorithm: 'http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p', disallowEncryptionWithInsecureAlgorithm: true },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  );
}

/** Every SP of the tests, each refusing or releasing in one way of its definition. */
function serviceProviders(folder: string, keys: SpKeys, backChannel: string): Record<string, unknown>[] {
  const sp = (id: number, name: string, more: Record<string, unknown> = {}) => spService(id, name, writeSpMetadata(folder, name, keys), more);
  return [
    sp(50, 'plain'),
    sp(51, 'staff', { accessStrategy: requiring({ memberOf: ['staff'] }) }),
    sp(52, 'disabled', { accessStrategy: { '@class': `${CAS}.DefaultRegisteredServiceAccessStrategy`, enabled: false } }),
    sp(53, 'nosso', { accessStrategy: { '@class': `${CAS}.DefaultRegisteredServiceAccessStrategy`, ssoEnabled: false } }),
    sp(54, 'mfa', { multifactorPolicy: { '@class': `${CAS}.DefaultRegisteredServiceMultifactorPolicy`, multifactorAuthenticationProviders: ['java.util.LinkedHashSet', ['mfa-gauth']] } }),
    sp(55, 'mailuser', {
      requiredNameIdFormat: 'unspecified',
      attributeReleasePolicy: { '@class': `${CAS}.ReturnAllowedAttributeReleasePolicy`, allowedAttributes: ['java.util.ArrayList', ['memberOf']] },
      usernameAttributeProvider: { '@class': `${CAS}.PrincipalAttributeRegisteredServiceUsernameProvider`, usernameAttribute: 'mail' },
      attributeFriendlyNames: { '@class': 'java.util.TreeMap', memberOf: 'isMemberOf' },
      attributeNameFormats: { '@class': 'java.util.TreeMap', memberOf: 'uri' },
    }),
    sp(56, 'encrypted', { encryptAssertions: true }),
    sp(57, 'redirected', { accessStrategy: requiring({ memberOf: ['staff'] }, { unauthorizedRedirectUrl: DENIED_PAGE }) }),
    spService(58, 'backchannel', writeSpMetadata(folder, 'backchannel', keys, backChannel)),
    sp(59, 'consented', {
      attributeReleasePolicy: {
        '@class': `${CAS}.ReturnAllowedAttributeReleasePolicy`,
        allowedAttributes: ['java.util.ArrayList', ['mail']],
        consentPolicy: { '@class': `${CAS}.consent.DefaultRegisteredServiceConsentPolicy`, status: 'TRUE' },
      },
    }),
  ];
}

interface Nodes {
  readonly publicUrl: string;
  readonly servers: readonly Tessera[];
}

function users() {
  return [
    { username: 'casuser', password: 'Mellon', otpSecret: OTP_SECRET, attributes: { mail: ['casuser@example.org'], memberOf: ['staff', 'faculty'] } },
    { username: 'alice', password: 'secret', attributes: { mail: ['alice@example.org'], memberOf: ['students'] } },
  ];
}

// docs/modules/saml2.md (Single sign-on): an SP's AuthnRequest goes through /login for the SP's
// registered service, and the one relying-party path decides access, second factor and release.
describe('saml2: single sign-on through /login, the SP obeying its own service definition', () => {
  describe('on the memory store', () =>
    singleSignOn(async (services) => {
      const tessera = await startSaml(services, { modules: ['rest', 'otp', 'login', 'consent', 'saml2'], consent: { active: false }, users: users() });
      return { publicUrl: tessera.url, servers: [tessera] };
    }));
  describeWithRedis('on Redis, two nodes behind one address: the request at one, the answer from the other', (redis) =>
    singleSignOn(async (services) => {
      const folder = mkdtempSync(join(tmpdir(), 'tessera-saml2-nodes-'));
      const [portA, portB] = [await freePort(), await freePort()];
      const shared = {
        modules: ['rest', 'otp', 'login', 'consent', 'saml2'],
        consent: { active: false },
        users: users(),
        storage: { type: 'redis', redis: { url: redis().url, keyPrefix: `saml${randomBytes(4).toString('hex')}:` } },
        login: { keyFile: join(folder, 'login-key.json') },
        saml2: { keyFile: join(folder, 'saml2-keys.json') },
      };
      // A writes the key files; B reads them. Both answer for A's address, as behind a load balancer.
      const a = await startSaml(services, { ...shared, server: { host: '127.0.0.1', port: portA, nodeName: 'node-a', publicUrl: `http://127.0.0.1:${portA}` } });
      const b = await startSaml(services, { ...shared, server: { host: '127.0.0.1', port: portB, nodeName: 'node-b', publicUrl: `http://127.0.0.1:${portA}` } });
      return { publicUrl: a.url, servers: [a, b] };
    }),
  );
});

function singleSignOn(start: (services: Record<string, unknown>[]) => Promise<Nodes>): void {
  let nodes: Nodes;
  let idp: Idp;
  let keys: SpKeys;
  let receiver: Awaited<ReturnType<typeof logoutReceiver>>;

  before(async function () {
    this.timeout(60_000);
    keys = await spKeys();
    receiver = await logoutReceiver();
    const folder = mkdtempSync(join(tmpdir(), 'tessera-saml2-sps-'));
    nodes = await start(serviceProviders(folder, keys, receiver.url));
    idp = await idpOf(nodes.publicUrl);
  });
  after(async () => {
    await Promise.all((nodes?.servers ?? []).map((server) => server.close()));
    receiver?.server.close();
  });

  const browser = () => new SpreadBrowser(nodes.publicUrl, nodes.servers);
  const sp = (name: string, options: Parameters<typeof scriptedSp>[3] = {}) => scriptedSp(name, keys, idp, options);
  const otp = () => TOTP.generate({ secret: Secret.fromBase32(OTP_SECRET) });
  /** The audit records of `action`, from every node. */
  const auditOf = (action: string) => nodes.servers.flatMap((server) => server.audit.map((line) => JSON.parse(line) as Record<string, unknown>)).filter((line) => line['action'] === action);

  /** The SP's AuthnRequest over HTTP-Redirect, walked through tessera. */
  async function signOn(saml: SAML, through: SpreadBrowser, fill: Parameters<typeof walk>[2] = {}, relayState = 'relay-1'): Promise<Walk> {
    const url = await saml.getAuthorizeUrlAsync(relayState, undefined, {});
    return walk(through, await through.get(url), fill);
  }

  /** A LogoutRequest naming the user by an EncryptedID, signed over HTTP-Redirect with the SP's key as a SAML SP signs it. */
  async function encryptedLogoutUrl(name: string, nameId: { readonly value: string; readonly format: string }, certificate: string, relayState: string): Promise<string> {
    const destination = `${idp.base}/idp/profile/SAML2/Redirect/SLO`;
    const xml =
      `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_${randomBytes(16).toString('hex')}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${destination}">` +
      `<saml:Issuer>${spEntityId(name)}</saml:Issuer><saml:EncryptedID>${await encryptedNameId(nameId, certificate)}</saml:EncryptedID></samlp:LogoutRequest>`;
    return redirectUrl(destination, 'SAMLRequest', xml, relayState, { credential: keys.signing, algorithm: RSA_SHA256 });
  }

  /** What the SP makes of the Response: node-saml's checks of signature, InResponseTo, audience, times. */
  async function accepted(saml: SAML, walked: Walk) {
    expect(walked.response, `no Response: ${walked.shown.join(' > ')} ${walked.page.status} ${/<main>([\s\S]*)<\/main>/.exec(walked.page.body)?.[1] ?? walked.page.body.slice(0, 400)}`).to.not.equal(undefined);
    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: walked.response!.SAMLResponse, ...(walked.response!.RelayState !== undefined && { RelayState: walked.response!.RelayState }) });
    return profile!;
  }

  it("the login form, then a signed Response a strict SP accepts: Destination, InResponseTo, audience, Recipient and NotOnOrAfter its own, the user a pairwise persistent id, the attributes its release policy allows", async () => {
    const saml = sp('plain');
    const through = browser();
    const walked = await signOn(saml, through, { user: CASUSER });
    expect(walked.shown, /<main>([\s\S]*)<\/main>/.exec(walked.page.body)?.[1]).to.deep.equal(['Log in']);
    const { xml, action, RelayState } = walked.response!;
    expect(action).to.equal(acsOf('plain'));
    expect(RelayState).to.equal('relay-1');
    const requestId = /InResponseTo="([^"]+)"/.exec(xml)?.[1];
    expect(xml).to.contain(`Destination="${acsOf('plain')}"`).and.contain(`Recipient="${acsOf('plain')}"`).and.contain(`<saml:Audience>${spEntityId('plain')}</saml:Audience>`);
    expect(xml.match(new RegExp(`InResponseTo="${requestId}"`, 'g'))).to.have.length(2);
    const notOnOrAfter = Date.parse(/SubjectConfirmationData NotOnOrAfter="([^"]+)"/.exec(xml)![1]!);
    expect(notOnOrAfter - Date.now()).to.be.within(200_000, 301_000);
    const profile = await accepted(saml, walked);
    expect(profile.nameIDFormat).to.equal('urn:oasis:names:tc:SAML:2.0:nameid-format:persistent');
    expect(profile.nameID).to.match(/^[A-Za-z0-9+/=]{20,}$/);
    expect(profile.nameID).to.not.equal('casuser');
    expect(profile['mail']).to.equal('casuser@example.org');
    expect(profile['memberOf']).to.deep.equal(['staff', 'faculty']);

    // Single sign-on: a second request of the same browser needs no form, and the same SP gets the same persistent id.
    const again = await signOn(saml, through);
    expect(again.shown).to.deep.equal([]);
    expect((await accepted(saml, again)).nameID).to.equal(profile.nameID);
    // The Response was answered once: its callback, visited again, has nothing to answer.
    const replayed = await through.get(walked.page.url);
    expect(replayed.status).to.equal(400);
  });

  it('the POST binding: a signed AuthnRequest in a form', async () => {
    // The POST binding carries base64 XML, never DEFLATE: node-saml deflates unless told otherwise.
    const saml = sp('plain', { entryPoint: `${idp.base}/idp/profile/SAML2/POST/SSO`, authnRequestBinding: 'HTTP-POST', skipRequestCompression: true });
    const message = (await saml.getAuthorizeMessageAsync('relay-post')) as Record<string, string>;
    const samlRequest = message['SAMLRequest']!;
    const through = browser();
    const walked = await walk(through, await through.post(`${nodes.publicUrl}/idp/profile/SAML2/POST/SSO`, { SAMLRequest: samlRequest, RelayState: 'relay-post' }), { user: CASUSER });
    expect((await accepted(saml, walked))['mail']).to.equal('casuser@example.org');
    expect(walked.response!.RelayState).to.equal('relay-post');
  });

  it("access: the SP's required attributes, enabled and ssoEnabled apply as to a CAS service's", async () => {
    // alice is no member of staff: the SP gets RequestDenied, no assertion.
    const refused = await signOn(sp('staff'), browser(), { user: ALICE });
    expect(statusOf(refused.response!.xml)).to.deep.equal(['Responder', 'RequestDenied']);
    expect(refused.response!.xml).to.not.contain('Assertion');
    expect(refused.response!.action).to.equal(acsOf('staff'));
    // A definition naming unauthorizedRedirectUrl sends the browser there instead.
    const redirected = await signOn(sp('redirected'), browser(), { user: ALICE });
    expect(redirected.page.location).to.equal(DENIED_PAGE);
    // A disabled SP: refused before any form, as an OIDC client is; the SP is told RequestDenied.
    const disabled = await signOn(sp('disabled'), browser(), { user: CASUSER });
    expect(disabled.shown).to.deep.equal([]);
    expect(statusOf(disabled.response!.xml)).to.deep.equal(['Responder', 'RequestDenied']);
    // ssoEnabled false: a session of the browser does not reach it; the form again.
    const through = browser();
    await signOn(sp('plain'), through, { user: CASUSER });
    const noSso = await signOn(sp('nosso'), through, { user: CASUSER });
    expect(noSso.shown).to.deep.equal(['Log in']);
    expect(statusOf(noSso.response!.xml)).to.deep.equal(['Success']);
  });

  it("second factor: the SP's multifactorPolicy asks the one-time code, also of a session without it (step-up); its context class says so", async () => {
    const saml = sp('mfa', { authnContext: ['https://refeds.org/profile/mfa'], racComparison: 'minimum' });
    const through = browser();
    await signOn(sp('plain'), through, { user: CASUSER });
    const stepped = await signOn(saml, through, { otp });
    expect(stepped.shown).to.deep.equal(['One-time code']);
    await accepted(saml, stepped);
    expect(stepped.response!.xml).to.contain('<saml:AuthnContextClassRef>https://refeds.org/profile/mfa</saml:AuthnContextClassRef>');
    // Without the code, no Response at all: the page asks for it.
    const unproven = await signOn(saml, browser(), { user: CASUSER });
    expect(unproven.response).to.equal(undefined);
    expect(unproven.shown).to.deep.equal(['Log in', 'One-time code']);
  });

  it("release: the SP's username provider names the user (an unspecified NameID), its release policy, friendly names and name formats shape the attributes", async () => {
    const saml = sp('mailuser', { identifierFormat: null });
    const walked = await signOn(saml, browser(), { user: CASUSER });
    const profile = await accepted(saml, walked);
    expect(profile.nameID).to.equal('casuser@example.org');
    expect(profile.nameIDFormat).to.equal('urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified');
    expect(profile['memberOf']).to.deep.equal(['staff', 'faculty']);
    expect(profile['mail']).to.equal(undefined);
    expect(walked.response!.xml).to.contain('Name="memberOf" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:uri" FriendlyName="isMemberOf"');
    // It asks for another format than its definition requires: InvalidNameIDPolicy.
    const transient = await signOn(sp('mailuser', { identifierFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient' }), browser(), { user: CASUSER });
    expect(statusOf(transient.response!.xml)).to.deep.equal(['Requester', 'InvalidNameIDPolicy']);
  });

  it('encryptAssertions: the assertion reaches the SP encrypted for its key, and decrypts to the user', async () => {
    const saml = sp('encrypted');
    const walked = await signOn(saml, browser(), { user: CASUSER });
    expect(walked.response!.xml).to.contain('EncryptedAssertion').and.not.contain('casuser@example.org');
    expect((await accepted(saml, walked))['mail']).to.equal('casuser@example.org');
  });

  it('ForceAuthn asks for the password again, whatever the session', async () => {
    const through = browser();
    await signOn(sp('plain'), through, { user: CASUSER });
    const saml = sp('plain', { forceAuthn: true });
    const forced = await signOn(saml, through, { user: CASUSER });
    expect(forced.shown).to.deep.equal(['Log in']);
    await accepted(saml, forced);
  });

  it('IsPassive: NoPassive without a session, never a form; with one, the user', async () => {
    const saml = sp('plain', { passive: true });
    const through = browser();
    const without = await signOn(saml, through);
    expect(without.shown).to.deep.equal([]);
    expect(statusOf(without.response!.xml)).to.deep.equal(['Responder', 'NoPassive']);
    expect(without.response!.xml).to.match(/InResponseTo="_/);
    await signOn(sp('plain'), through, { user: CASUSER });
    const withSession = await signOn(saml, through);
    expect(withSession.shown).to.deep.equal([]);
    expect((await accepted(saml, withSession))['mail']).to.equal('casuser@example.org');
  });

  it('IsPassive shows no page at all: a session the SP would first ask something of (a second factor, consent, a login of its own) gets NoPassive, and nothing changes', async () => {
    const through = browser();
    await signOn(sp('plain'), through, { user: CASUSER });
    for (const name of ['mfa', 'consented', 'nosso']) {
      const passive = await signOn(sp(name, { passive: true }), through);
      expect(passive.shown, name).to.deep.equal([]);
      expect(passive.response?.action, name).to.equal(acsOf(name));
      expect(statusOf(passive.response!.xml), name).to.deep.equal(['Responder', 'NoPassive']);
      expect(passive.response!.xml, name).to.not.contain('Assertion');
    }
    // Without IsPassive each asks its page: the session was not stepped up, nor consent taken.
    expect((await signOn(sp('mfa'), through)).shown).to.deep.equal(['One-time code']);
    expect((await signOn(sp('consented'), through)).shown).to.deep.equal(['Share your information?']);
    expect((await signOn(sp('nosso'), through)).shown).to.deep.equal(['Log in']);
  });

  it("consent to an SP is kept for its entity id, not for the login's own callback: the next login to it is not asked again, and the audit names the SP", async () => {
    const saml = sp('consented');
    const through = browser();
    const asked = await signOn(saml, through, { user: CASUSER });
    expect(asked.shown).to.deep.equal(['Log in', 'Share your information?']);
    const allowed = await walk(through, await through.submit(asked.page, { decision: 'allow' }));
    expect((await accepted(saml, allowed))['mail']).to.equal('casuser@example.org');
    expect(auditOf('consent.given').at(-1)).to.deep.include({ who: 'casuser', service: spEntityId('consented'), option: 'ATTRIBUTE_NAME', attributes: ['mail'] });
    const again = await signOn(saml, through);
    expect(again.shown, 'the decision counts').to.deep.equal([]);
    expect((await accepted(saml, again))['mail']).to.equal('casuser@example.org');
  });

  it('IdP-initiated: a Response without InResponseTo to an AssertionConsumerService of the metadata only', async () => {
    const through = browser();
    const query = new URLSearchParams({ providerId: spEntityId('plain'), shire: acsOf('plain'), target: 'landing' });
    const walked = await walk(through, await through.get(`${nodes.publicUrl}/idp/profile/SAML2/Unsolicited/SSO?${query.toString()}`), { user: CASUSER });
    expect(walked.response!.action).to.equal(acsOf('plain'));
    expect(walked.response!.RelayState).to.equal('landing');
    expect(walked.response!.xml).to.not.contain('InResponseTo');
    const unlisted = await through.get(`${nodes.publicUrl}/idp/profile/SAML2/Unsolicited/SSO?${new URLSearchParams({ providerId: spEntityId('plain'), shire: 'https://evil.example.org/acs' }).toString()}`);
    expect(unlisted.status).to.equal(400);
    expect(unlisted.body).to.contain('lists no AssertionConsumerService https://evil.example.org/acs');
  });

  it('a request of an unknown SP, or a replayed one, never reaches /login', async () => {
    const stranger = scriptedSp('stranger', keys, idp);
    const through = browser();
    const unknown = await through.get(await stranger.getAuthorizeUrlAsync('', undefined, {}));
    expect(unknown.status).to.equal(400);
    expect(unknown.body).to.contain(`No service provider is registered as ${spEntityId('stranger')}`);
    const url = await sp('plain').getAuthorizeUrlAsync('', undefined, {});
    expect((await through.get(url)).status).to.equal(303);
    const replay = await through.get(url);
    expect(replay.location).to.equal(null);
  });

  it("single logout the SP starts: its signed LogoutRequest ends the browser's session, and it gets a signed LogoutResponse it accepts", async () => {
    const saml = sp('plain');
    const through = browser();
    const profile = await accepted(saml, await signOn(saml, through, { user: CASUSER }));
    const logout = await through.get(await saml.getLogoutUrlAsync(profile, 'bye', {}));
    // node-saml's metadata lists its SingleLogoutService over HTTP-POST: the LogoutResponse is posted there, signed.
    const posted = postedResponse(logout);
    expect(posted?.action).to.equal(sloOf('plain'));
    expect(posted!.RelayState).to.equal('bye');
    expect(statusOf(posted!.xml)).to.deep.equal(['Success']);
    // Signed by the IdP's key, addressed to the SP's SingleLogoutService, in response to its request.
    const document = parseXml(posted!.xml, 1024 * 1024);
    const covered = verifyEnvelopedSignature(posted!.xml, document, envelopedSignatureOf(document)!, [idp.certificate], [RSA_SHA256], 1024 * 1024);
    expect(covered.getAttribute('Destination')).to.equal(sloOf('plain'));
    const requestXml = inflateRawSync(Buffer.from(new URL(logout.url).searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
    expect(covered.getAttribute('InResponseTo')).to.equal(/ID="([^"]+)"/.exec(requestXml)![1]);
    // The session is gone: the next request asks for the password.
    expect((await signOn(saml, through, { user: CASUSER })).shown).to.deep.equal(['Log in']);
    // The same LogoutRequest again is a replay; one naming another user leaves the session as it is.
    const fresh = await accepted(saml, await signOn(saml, through, { user: CASUSER }));
    const other = postedResponse(await through.get(await saml.getLogoutUrlAsync({ ...fresh, nameID: 'someone-else' }, '', {})));
    expect(statusOf(other!.xml)).to.deep.equal(['Requester', 'UnknownPrincipal']);
    expect((await signOn(saml, through)).shown).to.deep.equal([]);
  });

  it("single logout naming the user by an EncryptedID (Shibboleth's default): decrypted with the IdP's encryption key, it ends the session; one encrypted for another key is answered UnknownPrincipal and changes nothing", async () => {
    const saml = sp('plain');
    const through = browser();
    const profile = await accepted(saml, await signOn(saml, through, { user: CASUSER }));
    const metadata = await (await fetch(`${nodes.publicUrl}/idp/metadata`)).text();
    const encryptionCertificate = certificateOf(/<(?:md:)?KeyDescriptor use="encryption">[\s\S]*?<(?:ds:)?X509Certificate>([^<]+)</.exec(metadata)![1]!);
    const nameId = { value: profile.nameID, format: profile.nameIDFormat };

    // Encrypted for a key that is not tessera's: refused to the SP with a signed LogoutResponse, the session kept.
    const wrongKey = postedResponse(await through.get(await encryptedLogoutUrl('plain', nameId, keys.encryption.certificate, 'wrong')));
    expect(wrongKey?.action).to.equal(sloOf('plain'));
    expect(statusOf(wrongKey!.xml)).to.deep.equal(['Requester', 'UnknownPrincipal']);
    expect(wrongKey!.xml).to.contain("does not decrypt with any of tessera's encryption keys");
    expect((await signOn(saml, through)).shown).to.deep.equal([]);

    // Encrypted for tessera's key, naming the user: the session ends, the SP gets Success in response to its request.
    const logout = await through.get(await encryptedLogoutUrl('plain', nameId, encryptionCertificate, 'bye'));
    const posted = postedResponse(logout);
    expect(posted?.RelayState).to.equal('bye');
    expect(statusOf(posted!.xml)).to.deep.equal(['Success']);
    const document = parseXml(posted!.xml, 1024 * 1024);
    verifyEnvelopedSignature(posted!.xml, document, envelopedSignatureOf(document)!, [idp.certificate], [RSA_SHA256], 1024 * 1024);
    expect((await signOn(saml, through, { user: CASUSER })).shown).to.deep.equal(['Log in']);
  });

  it("an SP's LogoutResponse a browser brings to the SLO endpoints: a page saying the SP ended its session when it is the SP's, signed and Success, else a 400 naming why; never a 500, nothing kept, the session as it was", async () => {
    const saml = sp('plain');
    const through = browser();
    await accepted(saml, await signOn(saml, through, { user: CASUSER }));
    // As node-saml answers a LogoutRequest over HTTP-Redirect, signed in the query, though tessera asked none in this browser.
    const unasked = { ID: '_asked-over-the-back-channel', issuer: `${idp.base}/idp`, nameID: 'someone', nameIDFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent' } as Profile;
    const confirmedUrl = await saml.getLogoutResponseUrlAsync(unasked, 'relay', {}, true);
    for (let time = 0; time < 2; time++) {
      // Nothing was kept of the first: the same answer again is the same page.
      const confirmed = await through.get(confirmedUrl);
      expect(confirmed.status, confirmed.body).to.equal(200);
      expect(confirmed.body).to.contain('<h1>Logged out</h1>').and.contain(`The application ${spEntityId('plain')} has ended its session.`);
    }
    const notDone = await through.get(await saml.getLogoutResponseUrlAsync(unasked, '', {}, false));
    expect(notDone.status).to.equal(400);
    expect(notDone.body).to.contain(`${spEntityId('plain')} answered the logout with the status urn:oasis:names:tc:SAML:2.0:status:Requester`);

    // Over HTTP-POST: signed with the SP's key, unsigned, of an unknown SP, not XML, and beside a SAMLRequest.
    const postSlo = `${nodes.publicUrl}/idp/profile/SAML2/POST/SLO`;
    const answer = (issuer: string) => {
      const id = `_${randomBytes(16).toString('hex')}`;
      const xml = logoutResponseXml({ id, issueInstant: Date.now(), issuer, destination: `${idp.base}/idp/profile/SAML2/POST/SLO`, inResponseTo: '_asked', status: 'urn:oasis:names:tc:SAML:2.0:status:Success' });
      return { xml, signed: signEnveloped(xml, id, keys.signing, RSA_SHA256) };
    };
    const base64 = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');
    const posted = await through.post(postSlo, { SAMLResponse: base64(answer(spEntityId('plain')).signed), RelayState: 'relay' });
    expect(posted.status, posted.body).to.equal(200);
    expect(posted.body).to.contain(`The application ${spEntityId('plain')} has ended its session.`);
    const refusals: [Record<string, string>, string][] = [
      [{ SAMLResponse: base64(answer(spEntityId('plain')).xml) }, `The LogoutResponse of ${spEntityId('plain')} is not signed`],
      [{ SAMLResponse: base64(answer(spEntityId('stranger')).signed) }, `No service provider is registered as ${spEntityId('stranger')}`],
      [{ SAMLResponse: base64('not XML at all') }, ''],
      [{ SAMLResponse: base64(answer(spEntityId('plain')).signed), SAMLRequest: 'x' }, 'The message holds both a SAMLRequest and a SAMLResponse'],
      [{ RelayState: 'nothing else' }, 'The message holds neither a SAMLRequest nor a SAMLResponse'],
    ];
    for (const [fields, reason] of refusals) {
      const refused = await through.post(postSlo, fields);
      expect(refused.status, `${JSON.stringify(fields).slice(0, 80)}: ${refused.body}`).to.equal(400);
      expect(refused.body).to.contain(reason);
    }
    // The browser's session is as it was: the SP signs on without a form.
    expect((await signOn(saml, through)).shown).to.deep.equal([]);
  });

  it('a session that ends tells every other SP that got an assertion in it: a signed LogoutRequest over the back channel, naming the user as the SP knows them', async () => {
    const through = browser();
    const backChannel = sp('backchannel');
    const known = await accepted(backChannel, await signOn(backChannel, through, { user: CASUSER }));
    const saml = sp('plain');
    const profile = await accepted(saml, await signOn(saml, through));
    receiver.requests.length = 0;
    // The SP answers as a SAML SP does over HTTP-Redirect: a redirect carrying its signed LogoutResponse.
    receiver.answer = async (samlRequest) => {
      const { profile: asked } = await backChannel.validatePostRequestAsync({ SAMLRequest: samlRequest });
      return { status: 302, headers: { location: await backChannel.getLogoutResponseUrlAsync(asked, '', {}, true) } };
    };
    await through.get(await saml.getLogoutUrlAsync(profile, '', {}));
    expect(receiver.requests).to.have.length(1);
    // Confirmed, audited naming the SP and the user, never the NameID.
    const confirmed = auditOf('saml2.logout.confirmed');
    expect(confirmed).to.have.length(1);
    expect(confirmed[0]).to.deep.include({ audit: 'logout', outcome: 'success', who: 'casuser', serviceProvider: spEntityId('backchannel') });
    expect(JSON.stringify(confirmed)).to.not.contain(known.nameID);
    const request = receiver.requests[0]!;
    const document = parseXml(request, 1024 * 1024);
    const covered = verifyEnvelopedSignature(request, document, envelopedSignatureOf(document)!, [idp.certificate], [RSA_SHA256], 1024 * 1024);
    expect(covered.localName).to.equal('LogoutRequest');
    expect(covered.getAttribute('Destination')).to.equal(receiver.url);
    expect(request).to.contain(`>${known.nameID}</saml:NameID>`).and.contain(`<samlp:SessionIndex>${known.sessionIndex}</samlp:SessionIndex>`);
    // Told once: /logout of a session that is gone tells nobody again.
    await through.get(`${nodes.publicUrl}/logout`);
    expect(receiver.requests).to.have.length(1);
  });

  it("an SP's answer that does not confirm the logout is audited as a failure naming the SP and why: a LogoutResponse of another status, an HTTP error", async () => {
    const backChannel = sp('backchannel');
    receiver.answer = async (samlRequest) => {
      const { profile: asked } = await backChannel.validatePostRequestAsync({ SAMLRequest: samlRequest });
      return { status: 302, headers: { location: await backChannel.getLogoutResponseUrlAsync(asked, '', {}, false) } };
    };
    const failedBefore = auditOf('saml2.logout.failed').length;
    const through = browser();
    await accepted(backChannel, await signOn(backChannel, through, { user: CASUSER }));
    await through.get(`${nodes.publicUrl}/logout`);
    receiver.answer = () => Promise.resolve({ status: 503, body: 'down' });
    const again = browser();
    await accepted(backChannel, await signOn(backChannel, again, { user: CASUSER }));
    await again.get(`${nodes.publicUrl}/logout`);
    receiver.answer = undefined;
    const failed = auditOf('saml2.logout.failed').slice(failedBefore);
    expect(failed.map((line) => [line['reason'], line['outcome'], line['who'], line['serviceProvider']])).to.deep.equal([
      ['status', 'failure', 'casuser', spEntityId('backchannel')],
      ['http', 'failure', 'casuser', spEntityId('backchannel')],
    ]);
    expect(failed[1]).to.deep.include({ detail: 'HTTP 503' });
  });
}
