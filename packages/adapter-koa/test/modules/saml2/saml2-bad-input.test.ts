import { expect } from 'chai';
import { deflateRawSync } from 'node:zlib';
import { encrypt, type EncryptionAlgorithm } from 'xml-encryption';
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import { BINDING, STATUS } from '@tessera/core/modules/saml2';
import { InboundRefusal, logoutRequestXml, receiveAuthnRequest, receiveLogoutRequest, signEnveloped, type InboundMessage } from '@tessera/adapter-koa/modules/saml2';
import {
  ANSWERED,
  credentials,
  inboundDependencies,
  POST_SLO,
  POST_SSO,
  rawQueryOf,
  REDIRECT_SSO,
  scriptedSp,
  serviceProvider,
  SETTINGS,
  SP_ID,
  SP_SLO,
  type Credentials,
} from './saml2-fixture.js';

const SAMLP = 'urn:oasis:names:tc:SAML:2.0:protocol';
const DS = 'http://www.w3.org/2000/09/xmldsig#';

/** The request-id records a refusal must leave untouched. */
function stored(deps: ReturnType<typeof inboundDependencies>): number {
  return deps.records.namespaces.get('saml2.request-ids')?.size ?? 0;
}

async function refusedWith(run: Promise<unknown>): Promise<InboundRefusal> {
  try {
    await run;
  } catch (error) {
    if (error instanceof InboundRefusal) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

/** A signed AuthnRequest over HTTP-POST from node-saml, as XML, with its SP registered from its metadata. */
async function signedPostRequest(keys: Credentials, overrides = {}) {
  const saml = scriptedSp(keys, { entryPoint: POST_SSO, authnRequestBinding: 'HTTP-POST', skipRequestCompression: true, ...overrides });
  const form = (await saml.getAuthorizeMessageAsync('relay')) as Record<string, string>;
  return { sp: serviceProvider(saml, keys), xml: Buffer.from(form['SAMLRequest']!, 'base64').toString('utf8') };
}

function post(xml: string): InboundMessage {
  return { binding: BINDING.post, form: { SAMLRequest: Buffer.from(xml, 'utf8').toString('base64'), RelayState: 'relay' } };
}

function parse(xml: string): Document {
  return new DOMParser().parseFromString(xml, 'text/xml');
}

function text(document: Document): string {
  return new XMLSerializer().serializeToString(document);
}

/**
 * The classic XML signature wrapping variants (after SAML Raider's XSW catalogue, here against a
 * signed request): each keeps the SP's valid signature over its genuine request while an attacker's
 * request is what a careless reader would take.
 */
const WRAPPINGS: Readonly<Record<string, readonly [wrap: (document: Document) => void, reason: string]>> = {
  'the genuine request moved into an attacker root of its own ID, the signature left beside it': [
    (document) => {
      const genuine = document.documentElement;
      const evil = genuine.cloneNode(true) as Element;
      evil.setAttribute('ID', '_evil');
      evil.setAttribute('AssertionConsumerServiceURL', 'https://evil.example.org/acs');
      evil.removeChild(evil.getElementsByTagNameNS(DS, 'Signature').item(0)!);
      const extensions = document.createElementNS(SAMLP, 'samlp:Extensions');
      evil.insertBefore(extensions, evil.firstChild!.nextSibling);
      extensions.appendChild(genuine);
      document.appendChild(evil);
    },
    'The Signature is not a child of the message it signs'
  ],
  'the signature moved to an attacker root and the genuine request hidden in it': [
    (document) => {
      const genuine = document.documentElement;
      const signature = genuine.getElementsByTagNameNS(DS, 'Signature').item(0)!;
      const evil = genuine.cloneNode(true) as Element;
      evil.removeChild(evil.getElementsByTagNameNS(DS, 'Signature').item(0)!);
      evil.setAttribute('AssertionConsumerServiceURL', 'https://evil.example.org/acs');
      const extensions = document.createElementNS(SAMLP, 'samlp:Extensions');
      genuine.removeChild(signature);
      extensions.appendChild(genuine);
      evil.appendChild(signature);
      evil.appendChild(extensions);
      document.appendChild(evil);
    },
    'More than one element carries the signed ID'
  ],
  "an attacker root with the genuine request's ID, the genuine one inside the signature's Object": [
    (document) => {
      const genuine = document.documentElement;
      const signature = genuine.getElementsByTagNameNS(DS, 'Signature').item(0)!;
      const evil = genuine.cloneNode(true) as Element;
      evil.setAttribute('AssertionConsumerServiceURL', 'https://evil.example.org/acs');
      const evilSignature = evil.getElementsByTagNameNS(DS, 'Signature').item(0)!;
      const object = document.createElementNS(DS, 'ds:Object');
      genuine.removeChild(signature);
      object.appendChild(genuine);
      evilSignature.appendChild(object);
      document.appendChild(evil);
    },
    'More than one element carries the signed ID'
  ],
  'the genuine request changed in place (its ACS), the signature kept': [
    (document) => {
      document.documentElement.setAttribute('AssertionConsumerServiceURL', 'https://evil.example.org/acs');
    },
    "The signature does not verify with the peer's certificates"
  ],
  'the signature moved out of the root, into an Extensions of the genuine request': [
    (document) => {
      const genuine = document.documentElement;
      const signature = genuine.getElementsByTagNameNS(DS, 'Signature').item(0)!;
      genuine.removeChild(signature);
      const extensions = document.createElementNS(SAMLP, 'samlp:Extensions');
      extensions.appendChild(signature);
      genuine.appendChild(extensions);
    },
    'The Signature is not a child of the message it signs'
  ],
  'a second signature beside the first': [
    (document) => {
      const signature = document.documentElement.getElementsByTagNameNS(DS, 'Signature').item(0)!;
      document.documentElement.appendChild(signature.cloneNode(true));
    },
    'The message holds more than one Signature'
  ],
  'a signature whose reference points at another element': [
    (document) => {
      const reference = document.documentElement.getElementsByTagNameNS(DS, 'Reference').item(0)!;
      reference.setAttribute('URI', '#_somewhere-else');
    },
    'The signature does not refer to the message it is in'
  ],
};

describe('saml2: bad requests are refused, saying why, and leave nothing stored', () => {
  for (const [variant, [wrap, reason]] of Object.entries(WRAPPINGS)) {
    it(`signature wrapping of an AuthnRequest: ${variant}`, async () => {
      const keys = await credentials();
      const { sp, xml } = await signedPostRequest(keys);
      const document = parse(xml);
      wrap(document);
      const deps = inboundDependencies(sp);
      const refusal = await refusedWith(receiveAuthnRequest(post(text(document)), POST_SSO, ANSWERED, SETTINGS, deps));
      expect(refusal.answer, 'no answer to an address an unauthenticated request named').to.equal(undefined);
      expect(refusal.reason).to.equal(reason);
      expect(stored(deps)).to.equal(0);
    });
  }

  it('the genuine request itself passes, and its ID is then stored once (the control for the variants above)', async () => {
    const keys = await credentials();
    const { sp, xml } = await signedPostRequest(keys);
    const deps = inboundDependencies(sp);
    const received = await receiveAuthnRequest(post(xml), POST_SSO, ANSWERED, SETTINGS, deps);
    expect(received.signed).to.equal(true);
    expect(stored(deps)).to.equal(1);
  });

  it('a replayed request: refused the second time, on any node sharing the store, with a SAML status the SP may be sent', async () => {
    const keys = await credentials();
    const { sp, xml } = await signedPostRequest(keys);
    const deps = inboundDependencies(sp);
    await receiveAuthnRequest(post(xml), POST_SSO, ANSWERED, SETTINGS, deps);
    const refusal = await refusedWith(receiveAuthnRequest(post(xml), POST_SSO, ANSWERED, SETTINGS, deps));
    expect(refusal.reason).to.contain('was received before');
    expect(refusal.subStatus).to.equal(STATUS.requestDenied);
    expect(refusal.answer?.endpoint.location).to.equal('https://sp.example.org/login/callback');
    expect(stored(deps)).to.equal(1);
  });

  it('an AssertionConsumerServiceURL or an index the metadata does not list: refused, never answered there', async () => {
    const keys = await credentials();
    const { sp, xml } = await signedPostRequest(keys);
    const resigned = (change: (request: Element) => void) => {
      const document = parse(xml);
      const request = document.documentElement;
      request.removeChild(request.getElementsByTagNameNS(DS, 'Signature').item(0)!);
      change(request);
      return signEnveloped(text(document), request.getAttribute('ID')!, keys.sp, 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    };
    const cases: [string, (request: Element) => void][] = [
      ['AssertionConsumerServiceURL https://evil.example.org/acs', (request) => request.setAttribute('AssertionConsumerServiceURL', 'https://evil.example.org/acs')],
      ['AssertionConsumerServiceIndex 7', (request) => (request.removeAttribute('AssertionConsumerServiceURL'), request.setAttribute('AssertionConsumerServiceIndex', '7'))],
    ];
    for (const [named, change] of cases) {
      const deps = inboundDependencies(sp);
      const refusal = await refusedWith(receiveAuthnRequest(post(resigned(change)), POST_SSO, ANSWERED, SETTINGS, deps));
      expect(refusal.reason).to.equal(`The metadata of ${SP_ID} lists no ${named} for urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST that tessera answers over`);
      expect(refusal.answer).to.equal(undefined);
      expect(stored(deps)).to.equal(0);
    }
    // The index the metadata lists, signed as well, passes: the SP's own default.
    const listed = await receiveAuthnRequest(post(resigned((request) => (request.removeAttribute('AssertionConsumerServiceURL'), request.setAttribute('AssertionConsumerServiceIndex', '1')))), POST_SSO, ANSWERED, SETTINGS, inboundDependencies(sp));
    expect(listed.assertionConsumerService.location).to.equal('https://sp.example.org/login/callback');
  });

  it('an unknown SP', async () => {
    const keys = await credentials();
    const { xml } = await signedPostRequest(keys);
    const deps = inboundDependencies(undefined);
    const refusal = await refusedWith(receiveAuthnRequest(post(xml), POST_SSO, ANSWERED, SETTINGS, deps));
    expect(refusal.reason).to.equal(`No service provider is registered as ${SP_ID}`);
    expect(refusal.answer).to.equal(undefined);
    expect(stored(deps)).to.equal(0);
  });

  it('an IssueInstant too old or in the future, beyond the skew', async () => {
    const keys = await credentials();
    const { sp, xml } = await signedPostRequest(keys);
    const later = inboundDependencies(sp, () => Date.now() + (SETTINGS.maxAgeSeconds + SETTINGS.skewSeconds + 5) * 1000);
    expect((await refusedWith(receiveAuthnRequest(post(xml), POST_SSO, ANSWERED, SETTINGS, later))).reason).to.match(/IssueInstant .* is too old/);
    const earlier = inboundDependencies(sp, () => Date.now() - (SETTINGS.skewSeconds + 5) * 1000);
    const future = await refusedWith(receiveAuthnRequest(post(xml), POST_SSO, ANSWERED, SETTINGS, earlier));
    expect(future.reason).to.match(/IssueInstant .* is in the future/);
    expect(future.answer?.requestId).to.match(/^_/);
    expect(stored(later) + stored(earlier)).to.equal(0);
    // The SP's own skewAllowance widens the window for it alone.
    const lenient = { ...sp, policy: { ...sp.policy, skewAllowanceSeconds: 120 } };
    await receiveAuthnRequest(post(xml), POST_SSO, ANSWERED, SETTINGS, inboundDependencies(lenient, () => Date.now() - 90_000));
  });

  it('a Destination that is another endpoint', async () => {
    const keys = await credentials();
    const { sp, xml } = await signedPostRequest(keys);
    const deps = inboundDependencies(sp);
    const refusal = await refusedWith(receiveAuthnRequest(post(xml), 'https://sso.example.org/cas/elsewhere', ANSWERED, SETTINGS, deps));
    expect(refusal.reason).to.equal(`Destination ${POST_SSO} is not this endpoint (https://sso.example.org/cas/elsewhere)`);
    expect(stored(deps)).to.equal(0);
  });

  it('a DTD, an entity expansion, an external entity', async () => {
    const keys = await credentials();
    const { sp, xml } = await signedPostRequest(keys);
    const body = xml.replace(/^<\?xml[^>]*\?>/, '');
    const laughs = `<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>${body.replace('</samlp:AuthnRequest>', '<x>&lol2;</x></samlp:AuthnRequest>')}`;
    const external = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${body}`;
    const undeclared = body.replace('</samlp:AuthnRequest>', '<x>&xxe;</x></samlp:AuthnRequest>');
    for (const [document, reason] of [
      [laughs, /DOCTYPE/],
      [external, /DOCTYPE/],
      [undeclared, /not well-formed/],
    ] as const) {
      const deps = inboundDependencies(sp);
      expect((await refusedWith(receiveAuthnRequest(post(document), POST_SSO, ANSWERED, SETTINGS, deps))).reason).to.match(reason);
      expect(stored(deps)).to.equal(0);
    }
  });

  it('an unsigned request where the metadata says requests are signed; unsigned passes where it does not', async () => {
    const keys = await credentials();
    const signing = scriptedSp(keys);
    const unsigned = scriptedSp(keys, {}, false);
    const deps = inboundDependencies(serviceProvider(signing, keys));
    const refusal = await refusedWith(receiveAuthnRequest({ binding: BINDING.redirect, rawQuery: rawQueryOf(await unsigned.getAuthorizeUrlAsync('', undefined, {})) }, REDIRECT_SSO, ANSWERED, SETTINGS, deps));
    expect(refusal.reason).to.equal(`The metadata of ${SP_ID} says its AuthnRequests are signed, and this one is not`);
    expect(stored(deps)).to.equal(0);
    const relaxed = serviceProvider(unsigned, keys, {}, false);
    expect(relaxed.metadata.authnRequestsSigned).to.equal(false);
    const received = await receiveAuthnRequest({ binding: BINDING.redirect, rawQuery: rawQueryOf(await unsigned.getAuthorizeUrlAsync('', undefined, {})) }, REDIRECT_SSO, ANSWERED, SETTINGS, inboundDependencies(relaxed));
    expect(received.signed).to.equal(false);
  });

  it('over HTTP-Redirect: a tampered query, a signature by another key, SHA-1, an oversized or a non-deflated payload, a signature inside the XML', async () => {
    const keys = await credentials();
    const saml = scriptedSp(keys);
    const sp = serviceProvider(saml, keys);
    const query = rawQueryOf(await saml.getAuthorizeUrlAsync('relay', undefined, {}));
    const redirect = (rawQuery: string) => ({ binding: BINDING.redirect, rawQuery }) as const;
    const cases: [string, string | RegExp][] = [
      [query.replace('RelayState=relay', 'RelayState=other'), "The signature does not verify with the peer's certificates"],
      [rawQueryOf(await scriptedSp(keys, { privateKey: keys.stranger.privateKey }).getAuthorizeUrlAsync('relay', undefined, {})), "The signature does not verify with the peer's certificates"],
      [rawQueryOf(await scriptedSp(keys, { signatureAlgorithm: 'sha1' }).getAuthorizeUrlAsync('relay', undefined, {})), /The signature algorithm http:\/\/www.w3.org\/2000\/09\/xmldsig#rsa-sha1 is not allowed/],
      [`SAMLRequest=${encodeURIComponent(deflateRawSync(Buffer.from(`<a>${'x'.repeat(SETTINGS.maxMessageBytes)}</a>`)).toString('base64'))}`, `SAMLRequest inflates to more than ${SETTINGS.maxMessageBytes} bytes`],
      [`SAMLRequest=${encodeURIComponent(Buffer.from('<samlp:AuthnRequest/>').toString('base64'))}`, 'SAMLRequest is not DEFLATE-compressed, as the HTTP-Redirect binding requires'],
      [`SAMLRequest=${'A'.repeat(SETTINGS.maxMessageBytes * 2 + 4)}`, `SAMLRequest is longer than ${SETTINGS.maxMessageBytes * 2} characters`],
      [`SAMLRequest=abc&SAMLRequest=def`, 'The query holds SAMLRequest more than once'],
      [`RelayState=x`, 'The query holds no SAMLRequest'],
    ];
    for (const [rawQuery, reason] of cases) {
      const deps = inboundDependencies(sp);
      const refusal = await refusedWith(receiveAuthnRequest(redirect(rawQuery), REDIRECT_SSO, ANSWERED, SETTINGS, deps));
      expect(refusal.reason, rawQuery.slice(0, 40)).to.match(typeof reason === 'string' ? new RegExp(`^${reason.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : reason);
      expect(stored(deps)).to.equal(0);
    }
    // A POST-signed request sent over HTTP-Redirect: a signature in the XML has no place there.
    const { xml } = await signedPostRequest(keys);
    const deps = inboundDependencies(sp);
    const refusal = await refusedWith(receiveAuthnRequest(redirect(`SAMLRequest=${encodeURIComponent(deflateRawSync(Buffer.from(xml)).toString('base64'))}`), REDIRECT_SSO, ANSWERED, SETTINGS, deps));
    expect(refusal.reason).to.equal('A message over HTTP-Redirect carries its signature in the query, never in the XML');
  });

  it('a POST payload that is not base64, or too large', async () => {
    const keys = await credentials();
    const { sp } = await signedPostRequest(keys);
    for (const [SAMLRequest, reason] of [
      ['<samlp:AuthnRequest/>', /is not base64/],
      [Buffer.from(`<a>${'x'.repeat(SETTINGS.maxMessageBytes)}</a>`).toString('base64'), /larger than 65536 bytes/],
    ] as const) {
      const deps = inboundDependencies(sp);
      expect((await refusedWith(receiveAuthnRequest({ binding: BINDING.post, form: { SAMLRequest } }, POST_SSO, ANSWERED, SETTINGS, deps))).reason).to.match(reason);
    }
  });
});

/** A LogoutRequest over HTTP-POST, signed with the SP's key as an SP signs it (tessera builds it as it builds its own). */
function signedLogoutXml(keys: Credentials): string {
  const xml = logoutRequestXml({
    id: `_logout-${Math.random().toString(16).slice(2)}`,
    issueInstant: Date.now(),
    issuer: SP_ID,
    destination: POST_SLO,
    nameId: { value: 'AAdzZWNyZXQx', format: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent' },
    sessionIndexes: ['_session-1'],
  });
  return signEnveloped(xml, parse(xml).documentElement.getAttribute('ID')!, keys.sp, 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
}

describe('saml2: signature wrapping of a LogoutRequest is refused', () => {
  async function signedLogoutRequest(keys: Credentials) {
    const saml = scriptedSp(keys, { logoutUrl: POST_SLO });
    const url = await saml.getLogoutUrlAsync({ issuer: SP_ID, nameID: 'AAdzZWNyZXQx', nameIDFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent', sessionIndex: '_session-1' }, 'relay', {});
    return { saml, url };
  }

  it('a genuine signed LogoutRequest passes, and is accepted once', async () => {
    const keys = await credentials();
    const { saml, url } = await signedLogoutRequest(keys);
    const sp = serviceProvider(saml, keys);
    const deps = inboundDependencies(sp);
    const received = await receiveLogoutRequest({ binding: BINDING.redirect, rawQuery: rawQueryOf(url) }, POST_SLO, SETTINGS, deps);
    expect(received.message.nameId).to.deep.equal({ value: 'AAdzZWNyZXQx', format: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent' });
    expect(received.message.sessionIndexes).to.deep.equal(['_session-1']);
    expect((await refusedWith(receiveLogoutRequest({ binding: BINDING.redirect, rawQuery: rawQueryOf(url) }, POST_SLO, SETTINGS, deps))).reason).to.contain('was received before');
  });

  for (const [variant, [wrap, reason]] of Object.entries(WRAPPINGS)) {
    it(`over HTTP-POST: ${variant}`, async () => {
      const keys = await credentials();
      const { saml } = await signedLogoutRequest(keys);
      const sp = serviceProvider(saml, keys);
      const xml = signedLogoutXml(keys);
      const document = parse(xml);
      wrap(document);
      const deps = inboundDependencies(sp);
      const refusal = await refusedWith(receiveLogoutRequest(post(text(document)), POST_SLO, SETTINGS, deps));
      expect(refusal.reason).to.equal(reason);
      expect(stored(deps)).to.equal(0);
    });
  }

  it('over HTTP-POST: the genuine one passes (the control)', async () => {
    const keys = await credentials();
    const { saml } = await signedLogoutRequest(keys);
    const received = await receiveLogoutRequest(post(signedLogoutXml(keys)), POST_SLO, SETTINGS, inboundDependencies(serviceProvider(saml, keys)));
    expect(received.signed).to.equal(true);
  });

  it('an unsigned LogoutRequest', async () => {
    const keys = await credentials();
    const unsigned = scriptedSp(keys, { logoutUrl: POST_SLO }, false);
    const url = await unsigned.getLogoutUrlAsync({ issuer: SP_ID, nameID: 'x', nameIDFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent' }, '', {});
    const deps = inboundDependencies(serviceProvider(unsigned, keys, {}, false));
    expect((await refusedWith(receiveLogoutRequest({ binding: BINDING.redirect, rawQuery: rawQueryOf(url) }, POST_SLO, SETTINGS, deps))).reason).to.equal(`The LogoutRequest of ${SP_ID} is not signed`);
    expect(stored(deps)).to.equal(0);
  });
});

describe('saml2: a LogoutRequest naming its user by an EncryptedID', () => {
  const nameIdXml = '<saml:NameID xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent">AAdzZWNyZXQx</saml:NameID>';

  function encryptedFor(certificate: string, algorithm: string): Promise<string> {
    return new Promise((resolve, reject) =>
      encrypt(nameIdXml, { rsa_pub: certificate, pem: certificate, encryptionAlgorithm: algorithm as EncryptionAlgorithm, keyEncryptionAlgorithm: 'http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p', disallowEncryptionWithInsecureAlgorithm: false, warnInsecureAlgorithm: false }, (error, result) =>
        error ? reject(error) : resolve(result),
      ),
    );
  }

  /** A LogoutRequest with an EncryptedID, enveloped-signed by the SP's key (HTTP-POST). */
  async function signedEncryptedLogout(keys: Credentials, certificate: string, algorithm = 'http://www.w3.org/2009/xmlenc11#aes256-gcm'): Promise<string> {
    const id = `_logout-${Math.random().toString(16).slice(2)}`;
    const xml =
      `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${POST_SLO}">` +
      `<saml:Issuer>${SP_ID}</saml:Issuer><saml:EncryptedID>${await encryptedFor(certificate, algorithm)}</saml:EncryptedID><samlp:SessionIndex>_session-1</samlp:SessionIndex></samlp:LogoutRequest>`;
    return signEnveloped(xml, id, keys.sp, 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
  }

  const spOf = (keys: Credentials) => serviceProvider(scriptedSp(keys, { logoutUrl: POST_SLO }), keys);
  const keySet = (keys: Credentials) => [
    { state: 'current' as const, ...keys.idpEncryption },
    { state: 'next' as const, ...keys.stranger },
  ];

  it('is read as its NameID once decrypted, with the current key or, during a rollover, the next one', async () => {
    const keys = await credentials();
    const sp = spOf(keys);
    for (const certificate of [keys.idpEncryption.certificate, keys.stranger.certificate]) {
      const received = await receiveLogoutRequest(post(await signedEncryptedLogout(keys, certificate)), POST_SLO, SETTINGS, inboundDependencies(sp, undefined, keySet(keys)));
      expect(received.message.nameId).to.deep.equal({ value: 'AAdzZWNyZXQx', format: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent' });
      expect(received.message.sessionIndexes).to.deep.equal(['_session-1']);
    }
  });

  it('is refused, answered to the SP and nothing stored, when no key of the IdP decrypts it or its algorithm is AES-CBC', async () => {
    const keys = await credentials();
    const sp = spOf(keys);
    const cases = [
      [await signedEncryptedLogout(keys, keys.spEncryption.certificate), "The EncryptedID does not decrypt with any of tessera's encryption keys"],
      [await signedEncryptedLogout(keys, keys.idpEncryption.certificate, 'http://www.w3.org/2001/04/xmlenc#aes256-cbc'), 'The EncryptedID is encrypted with http://www.w3.org/2001/04/xmlenc#aes256-cbc; tessera decrypts'],
    ] as const;
    for (const [xml, reason] of cases) {
      const deps = inboundDependencies(sp, undefined, keySet(keys));
      const refusal = await refusedWith(receiveLogoutRequest(post(xml), POST_SLO, SETTINGS, deps));
      expect(refusal.reason).to.contain(reason);
      expect([refusal.status, refusal.subStatus]).to.deep.equal([STATUS.requester, STATUS.unknownPrincipal]);
      expect(refusal.answer?.endpoint.location).to.equal(SP_SLO);
      expect(refusal.answer?.requestId).to.match(/^_logout-/);
      expect(stored(deps)).to.equal(0);
    }
  });
});
