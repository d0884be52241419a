import { expect } from 'chai';
import { assertionContent, BINDING, chooseNameIdFormat, NAME_ID_FORMAT, nameIdValue, samlId, samlServiceProviderPolicy, STATUS, statusResponseContent, type SamlServiceProvider, type SamlStatusCode } from '@tessera/core/modules/saml2';
import { SeededRandomSource } from '@tessera/testkit';
import {
  logoutRequestXml,
  logoutResponseXml,
  ProtectionUnavailableError,
  receiveAuthnRequest,
  receiveLogoutRequest,
  receiveLogoutAnswer,
  redirectUrl,
  responseProtection,
  responseXml,
  signEnveloped,
  statusResponseXml,
  type ResponseProtection,
} from '@tessera/adapter-koa/modules/saml2';
import { ACS, ANSWERED, credentials, IDP_ID, inboundDependencies, POST_SSO, rawQueryOf, REDIRECT_SLO, REDIRECT_SSO, scriptedSp, serviceProvider, SETTINGS, SP_ID, SP_SLO } from './saml2-fixture.js';

const random = new SeededRandomSource('seed-42');
const USER = { username: 'casuser', attributes: { mail: ['casuser@example.org'], eduPersonAffiliation: ['member', 'staff'], cn: ['CAS <User> & co'] } };

/** What tessera answers a request with, as the SSO endpoint will: the content from the release, protected as the SP asks. */
async function answer(sp: SamlServiceProvider, request: Awaited<ReturnType<typeof receiveAuthnRequest>>, protection: Partial<ResponseProtection> = {}) {
  const keys = await credentials();
  const format = chooseNameIdFormat(sp, request.message.nameIdPolicy);
  const now = Date.now();
  const content = assertionContent({
    idpEntityId: IDP_ID,
    sp,
    request: request.message,
    assertionConsumerService: request.assertionConsumerService,
    user: USER,
    nameId: { value: nameIdValue(format, USER, sp.metadata.entityId, { persistentIdSalt: 'a salt of at least thirty-two characters', random }), format, nameQualifier: IDP_ID, spNameQualifier: sp.metadata.entityId },
    authenticatedAt: now - 5_000,
    sessionIndex: '_session-1',
    contextClassRef: 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport',
    now,
    lifetimeSeconds: 300,
    skewSeconds: 30,
    random,
  });
  const xml = await responseXml(content, { ...responseProtection(sp, keys.idp), ...protection });
  return { xml, content };
}

describe('saml2: an exchange with a scripted SP (node-saml), strict as SPs come', () => {
  it("reads the SP's metadata: its ACS, its logout endpoint, its signing and encryption certificates, its NameID format", async () => {
    const keys = await credentials();
    const sp = serviceProvider(scriptedSp(keys), keys);
    expect(sp.metadata.entityId).to.equal(SP_ID);
    expect(sp.metadata.assertionConsumerServices).to.deep.equal([{ binding: BINDING.post, location: ACS, index: 1, isDefault: true }]);
    expect(sp.metadata.singleLogoutServices.map((endpoint) => endpoint.location)).to.deep.equal(['https://sp.example.org/logout/callback']);
    expect(sp.metadata.signingCertificates.map((pem) => pem.replace(/\s+/g, ''))).to.deep.equal([keys.sp.certificate.replace(/\s+/g, '')]);
    expect(sp.metadata.encryptionCertificates.map((pem) => pem.replace(/\s+/g, ''))).to.deep.equal([keys.spEncryption.certificate.replace(/\s+/g, '')]);
    expect(sp.metadata.nameIdFormats).to.deep.equal([NAME_ID_FORMAT.persistent]);
    expect(sp.metadata.authnRequestsSigned).to.equal(true);
    expect(sp.metadata.wantAssertionsSigned).to.equal(true);
  });

  it('takes its signed AuthnRequest over HTTP-Redirect, and the SP accepts the signed, encrypted answer', async () => {
    const keys = await credentials();
    const saml = scriptedSp(keys);
    const sp = serviceProvider(saml, keys, { signResponses: true, encryptAssertions: true });
    const url = await saml.getAuthorizeUrlAsync('relay-1', undefined, {});
    const deps = inboundDependencies(sp);
    const received = await receiveAuthnRequest({ binding: BINDING.redirect, rawQuery: rawQueryOf(url) }, REDIRECT_SSO, ANSWERED, SETTINGS, deps);
    expect(received.signed).to.equal(true);
    expect(received.relayState).to.equal('relay-1');
    expect(received.message.issuer).to.equal(SP_ID);
    expect(received.assertionConsumerService.location).to.equal(ACS);
    expect(received.message.nameIdPolicy?.format).to.equal(NAME_ID_FORMAT.persistent);

    const { xml, content } = await answer(sp, received);
    expect(xml).to.contain('EncryptedAssertion').and.not.contain('casuser@example.org');
    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: Buffer.from(xml).toString('base64') });
    expect(profile?.nameID).to.equal(content.nameId.value);
    expect(profile?.nameIDFormat).to.equal(NAME_ID_FORMAT.persistent);
    expect(profile?.issuer).to.equal(IDP_ID);
    expect(profile?.sessionIndex).to.equal('_session-1');
    expect(profile?.['mail']).to.equal('casuser@example.org');
    expect(profile?.['eduPersonAffiliation']).to.deep.equal(['member', 'staff']);
    expect(profile?.['cn']).to.equal('CAS <User> & co');
  });

  it('takes its signed AuthnRequest over HTTP-POST (an enveloped signature), and the SP accepts an unencrypted answer', async () => {
    const keys = await credentials();
    // The POST binding carries base64 XML, never DEFLATE (SAML Bindings §3.5.4): node-saml deflates unless told otherwise.
    const saml = scriptedSp(keys, { entryPoint: POST_SSO, authnRequestBinding: 'HTTP-POST', skipRequestCompression: true });
    const sp = serviceProvider(saml, keys);
    const form = await saml.getAuthorizeMessageAsync('relay-2');
    const received = await receiveAuthnRequest({ binding: BINDING.post, form: form as Record<string, string> }, POST_SSO, ANSWERED, SETTINGS, inboundDependencies(sp));
    expect(received.signed).to.equal(true);
    expect(received.binding).to.equal(BINDING.post);
    const { xml } = await answer(sp, received);
    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: Buffer.from(xml).toString('base64') });
    expect(profile?.['mail']).to.equal('casuser@example.org');
  });

  it('the SP refuses an answer whose signature is not the IdP key, or that answers another request', async () => {
    const keys = await credentials();
    const saml = scriptedSp(keys);
    const sp = serviceProvider(saml, keys);
    const received = await receiveAuthnRequest({ binding: BINDING.redirect, rawQuery: rawQueryOf(await saml.getAuthorizeUrlAsync('', undefined, {})) }, REDIRECT_SSO, ANSWERED, SETTINGS, inboundDependencies(sp));
    const forged = await answer(sp, received, { credential: keys.stranger });
    await saml.validatePostResponseAsync({ SAMLResponse: Buffer.from(forged.xml).toString('base64') }).then(
      () => expect.fail('accepted'),
      (error: Error) => expect(error.message).to.match(/signature/i),
    );
    const other = await receiveAuthnRequest({ binding: BINDING.redirect, rawQuery: rawQueryOf(await scriptedSp(keys).getAuthorizeUrlAsync('', undefined, {})) }, REDIRECT_SSO, ANSWERED, SETTINGS, inboundDependencies(sp));
    const unasked = await answer(sp, other);
    await saml.validatePostResponseAsync({ SAMLResponse: Buffer.from(unasked.xml).toString('base64') }).then(
      () => expect.fail('accepted'),
      (error: Error) => expect(error.message).to.match(/InResponseTo/i),
    );
  });

  it('a refusal the SP hears of: a signed Response with the SAML status, which the SP reads as such', async () => {
    const keys = await credentials();
    const saml = scriptedSp(keys);
    const sp = serviceProvider(saml, keys);
    const received = await receiveAuthnRequest({ binding: BINDING.redirect, rawQuery: rawQueryOf(await saml.getAuthorizeUrlAsync('', undefined, {})) }, REDIRECT_SSO, ANSWERED, SETTINGS, inboundDependencies(sp));
    const refusal = (status: SamlStatusCode, subStatus: SamlStatusCode, message: string) =>
      statusResponseXml(statusResponseContent({ idpEntityId: IDP_ID, sp, request: received.message, destination: received.assertionConsumerService.location, status, subStatus, message, now: Date.now(), random }), {
        credential: keys.idp,
        algorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      });
    // NoPassive (SAML Core §3.4.1.4): the SP knows it by its signed status, and logs no one in.
    const passive = await saml.validatePostResponseAsync({ SAMLResponse: Buffer.from(refusal(STATUS.responder, STATUS.noPassive, 'No login session, and the request is passive')).toString('base64') });
    expect(passive).to.deep.equal({ profile: null, loggedOut: false });
    await saml.validatePostResponseAsync({ SAMLResponse: Buffer.from(refusal(STATUS.requester, STATUS.requestDenied, 'The user may not use this service')).toString('base64') }).then(
      () => expect.fail('accepted'),
      (error: Error) => expect(error.message).to.equal('SAML provider returned Requester error: The user may not use this service'),
    );
  });

  it("single logout from the IdP: the SP accepts tessera's signed LogoutRequest over HTTP-Redirect, and tessera its signed LogoutResponse", async () => {
    const keys = await credentials();
    const saml = scriptedSp(keys, { logoutUrl: REDIRECT_SLO });
    const sp = serviceProvider(saml, keys);
    const id = samlId(random);
    const request = logoutRequestXml({ id, issueInstant: Date.now(), issuer: IDP_ID, destination: SP_SLO, nameId: { value: 'AAdzZWNyZXQx', format: NAME_ID_FORMAT.persistent, nameQualifier: IDP_ID, spNameQualifier: SP_ID }, sessionIndexes: ['_session-1'] });
    const url = redirectUrl(SP_SLO, 'SAMLRequest', request, 'relay-out', { credential: keys.idp, algorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256' });
    const query = Object.fromEntries(new URL(url).searchParams);
    const { profile, loggedOut } = await saml.validateRedirectAsync(query, rawQueryOf(url));
    expect(loggedOut).to.equal(true);
    expect(profile?.nameID).to.equal('AAdzZWNyZXQx');
    expect(profile?.sessionIndex).to.equal('_session-1');

    const answer = await saml.getLogoutResponseUrlAsync(profile!, 'relay-out', {}, true);
    const received = await receiveLogoutAnswer({ binding: BINDING.redirect, rawQuery: rawQueryOf(answer) }, REDIRECT_SLO, { sp, requestId: id }, SETTINGS, inboundDependencies(sp));
    expect(received.inResponseTo).to.equal(id);
    expect(received.status).to.equal(STATUS.success);
  });

  it('a LogoutRequest tessera signs for HTTP-POST verifies as the SP verifies it (the enveloped form)', async () => {
    const keys = await credentials();
    const id = samlId(random);
    const request = logoutRequestXml({ id, issueInstant: Date.now(), issuer: IDP_ID, destination: SP_SLO, nameId: { value: 'casuser', format: NAME_ID_FORMAT.unspecified }, sessionIndexes: [] });
    const signed = signEnveloped(request, id, keys.idp, 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    const saml = scriptedSp(keys, { logoutUrl: REDIRECT_SLO });
    const { loggedOut, profile } = await saml.validatePostRequestAsync({ SAMLRequest: Buffer.from(signed).toString('base64') });
    expect(loggedOut).to.equal(true);
    expect(profile?.nameID).to.equal('casuser');
  });

  it("single logout from the SP: tessera reads its signed LogoutRequest, and the SP accepts tessera's signed LogoutResponse over HTTP-Redirect", async () => {
    const keys = await credentials();
    const saml = scriptedSp(keys, { logoutUrl: REDIRECT_SLO });
    const sp = serviceProvider(saml, keys);
    const url = await saml.getLogoutUrlAsync({ issuer: SP_ID, nameID: 'AAdzZWNyZXQx', nameIDFormat: NAME_ID_FORMAT.persistent, sessionIndex: '_session-1' }, 'relay-in', {});
    const { message, relayState } = await receiveLogoutRequest({ binding: BINDING.redirect, rawQuery: rawQueryOf(url) }, REDIRECT_SLO, SETTINGS, inboundDependencies(sp));
    const response = logoutResponseXml({ id: samlId(random), issueInstant: Date.now(), issuer: IDP_ID, destination: SP_SLO, inResponseTo: message.id, status: STATUS.success });
    const answer = redirectUrl(SP_SLO, 'SAMLResponse', response, relayState, { credential: keys.idp, algorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256' });
    const { loggedOut } = await saml.validateRedirectAsync(Object.fromEntries(new URL(answer).searchParams), rawQueryOf(answer));
    expect(loggedOut).to.equal(true);
    // A LogoutResponse to a request the SP never sent is refused by it.
    const unasked = redirectUrl(SP_SLO, 'SAMLResponse', logoutResponseXml({ id: samlId(random), issueInstant: Date.now(), issuer: IDP_ID, destination: SP_SLO, inResponseTo: '_never-sent', status: STATUS.success }), undefined, {
      credential: keys.idp,
      algorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    });
    await saml.validateRedirectAsync(Object.fromEntries(new URL(unasked).searchParams), rawQueryOf(unasked)).then(
      () => expect.fail('accepted'),
      (error: Error) => expect(error.message).to.match(/InResponseTo/),
    );
  });

  it('protects each SP as its definition and metadata say: encryption with its preferred algorithm, refused without an encryption certificate', async () => {
    const keys = await credentials();
    const sp = serviceProvider(scriptedSp(keys), keys, { encryptAssertions: true, signResponses: false, signingSignatureAlgorithms: ['http://www.w3.org/2001/04/xmldsig-more#rsa-sha512'] });
    const chosen = responseProtection(sp, keys.idp);
    expect(chosen).to.deep.include({ algorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512', signAssertion: true, signResponse: false });
    expect(chosen.encryptFor?.algorithm).to.equal('http://www.w3.org/2009/xmlenc11#aes256-gcm');
    const preferring = { ...sp, metadata: { ...sp.metadata, encryptionMethods: ['http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p', 'http://www.w3.org/2001/04/xmlenc#aes256-cbc', 'http://www.w3.org/2009/xmlenc11#aes128-gcm'] } };
    expect(responseProtection(preferring, keys.idp).encryptFor?.algorithm).to.equal('http://www.w3.org/2009/xmlenc11#aes128-gcm');
    const cbcOnly = { ...sp, metadata: { ...sp.metadata, encryptionMethods: ['http://www.w3.org/2001/04/xmlenc#aes128-cbc'] } };
    expect(() => responseProtection(cbcOnly, keys.idp)).to.throw(ProtectionUnavailableError, 'lists no data encryption algorithm tessera encrypts with');
    const keyless = { ...sp, metadata: { ...sp.metadata, encryptionCertificates: [] } };
    expect(() => responseProtection(keyless, keys.idp)).to.throw(ProtectionUnavailableError, `${SP_ID} asks for encrypted assertions, and its metadata has no encryption certificate`);
    expect(responseProtection({ ...sp, policy: samlServiceProviderPolicy() }, keys.idp).encryptFor).to.equal(undefined);
  });
});
