import { expect } from 'chai';
import { persistentId } from '@tessera/core';
import {
  assertionConsumerService,
  assertionContent,
  authnContextClassFor,
  BINDING,
  checkDestination,
  checkIssueInstant,
  checkRequestedAuthnContext,
  chooseNameIdFormat,
  meetsRequestedAuthnContext,
  NAME_ID_FORMAT,
  nameIdValue,
  samlServiceProviderPolicy,
  SamlRequestRefusedError,
  signsAssertions,
  singleLogoutService,
  STATUS,
  type SamlServiceProvider,
  type SpMetadata,
} from '@tessera/core/modules/saml2';
import { SeededRandomSource } from '@tessera/testkit';

const SP_ID = 'https://sp.example.org/shibboleth';
const ACS_POST = 'https://sp.example.org/Shibboleth.sso/SAML2/POST';
const ACS_ARTIFACT = 'https://sp.example.org/Shibboleth.sso/SAML2/Artifact';

function metadata(overrides: Partial<SpMetadata> = {}): SpMetadata {
  return {
    entityId: SP_ID,
    assertionConsumerServices: [
      { binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Artifact', location: ACS_ARTIFACT, index: 0, isDefault: true },
      { binding: BINDING.post, location: ACS_POST, index: 1 },
      { binding: BINDING.post, location: `${ACS_POST}-second`, index: 2 },
    ],
    singleLogoutServices: [
      { binding: 'urn:oasis:names:tc:SAML:2.0:bindings:SOAP', location: 'https://sp.example.org/Shibboleth.sso/SLO/SOAP' },
      { binding: BINDING.redirect, location: 'https://sp.example.org/Shibboleth.sso/SLO/Redirect' },
      { binding: BINDING.post, location: 'https://sp.example.org/Shibboleth.sso/SLO/POST' },
    ],
    signingCertificates: [],
    encryptionCertificates: [],
    encryptionMethods: [],
    authnRequestsSigned: false,
    wantAssertionsSigned: false,
    nameIdFormats: [],
    ...overrides,
  };
}

function sp(metadataOverrides: Partial<SpMetadata> = {}, policy = samlServiceProviderPolicy()): SamlServiceProvider {
  return { metadata: metadata(metadataOverrides), policy };
}

function refusal(run: () => unknown): SamlRequestRefusedError {
  try {
    run();
  } catch (error) {
    if (error instanceof SamlRequestRefusedError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('saml2: where a Response goes (AssertionConsumerService of the SP metadata)', () => {
  const post = [BINDING.post];

  it('takes the URL the request names, only when the metadata lists it for a binding tessera answers over', () => {
    expect(assertionConsumerService(metadata(), { url: `${ACS_POST}-second` }, post)?.index).to.equal(2);
    expect(assertionConsumerService(metadata(), { url: ACS_POST, binding: BINDING.post }, post)?.index).to.equal(1);
    expect(assertionConsumerService(metadata(), { url: 'https://evil.example.org/acs' }, post)).to.equal(undefined);
    expect(assertionConsumerService(metadata(), { url: `${ACS_POST}/` }, post), 'compared exactly').to.equal(undefined);
    expect(assertionConsumerService(metadata(), { url: ACS_ARTIFACT }, post), 'an artifact endpoint is none tessera answers at').to.equal(undefined);
    expect(assertionConsumerService(metadata(), { url: ACS_POST, binding: BINDING.redirect }, post)).to.equal(undefined);
  });

  it('takes the index the request names, only when listed; never URL and index at once', () => {
    expect(assertionConsumerService(metadata(), { index: 2 }, post)?.location).to.equal(`${ACS_POST}-second`);
    expect(assertionConsumerService(metadata(), { index: 7 }, post)).to.equal(undefined);
    expect(assertionConsumerService(metadata(), { index: 0 }, post), 'the artifact default').to.equal(undefined);
    expect(assertionConsumerService(metadata(), { url: ACS_POST, index: 1 }, post)).to.equal(undefined);
  });

  it('without either, the default of those tessera answers over: isDefault, else the first not marked otherwise', () => {
    expect(assertionConsumerService(metadata(), {}, post)?.location).to.equal(ACS_POST);
    const marked = metadata({ assertionConsumerServices: [{ binding: BINDING.post, location: ACS_POST, index: 1, isDefault: false }, { binding: BINDING.post, location: `${ACS_POST}-second`, index: 2, isDefault: true }] });
    expect(assertionConsumerService(marked, {}, post)?.index).to.equal(2);
    expect(assertionConsumerService(metadata({ assertionConsumerServices: [] }), {}, post)).to.equal(undefined);
  });

  it('a single logout endpoint by the bindings tessera prefers, in order', () => {
    expect(singleLogoutService(metadata(), [BINDING.redirect, BINDING.post])?.location).to.match(/Redirect$/);
    expect(singleLogoutService(metadata(), [BINDING.post])?.location).to.match(/POST$/);
    expect(singleLogoutService(metadata({ singleLogoutServices: [] }), [BINDING.post])).to.equal(undefined);
  });

  it('signs the assertion when the definition asks or the metadata wants it', () => {
    expect(signsAssertions(sp())).to.equal(false);
    expect(signsAssertions(sp({ wantAssertionsSigned: true }))).to.equal(true);
    expect(signsAssertions(sp({}, samlServiceProviderPolicy({ signAssertions: true })))).to.equal(true);
  });
});

describe('saml2: NameIDs', () => {
  const secrets = { persistentIdSalt: 'salt of this IdP', random: new SeededRandomSource('seed-7') };
  const user = { username: 'casuser', attributes: { mail: ['casuser@example.org'], cn: ['CAS User'] } };

  it("takes requiredNameIdFormat whatever the request leaves open, and refuses a request for another", () => {
    const required = sp({}, samlServiceProviderPolicy({ requiredNameIdFormat: NAME_ID_FORMAT.email }));
    expect(chooseNameIdFormat(required, undefined)).to.equal(NAME_ID_FORMAT.email);
    expect(chooseNameIdFormat(required, { format: NAME_ID_FORMAT.unspecified })).to.equal(NAME_ID_FORMAT.email);
    const refused = refusal(() => chooseNameIdFormat(required, { format: NAME_ID_FORMAT.persistent }));
    expect(refused.subStatus).to.equal(STATUS.invalidNameIdPolicy);
    expect(refused.reason).to.contain(NAME_ID_FORMAT.persistent);
    expect(refusal(() => chooseNameIdFormat(sp({}, samlServiceProviderPolicy({ requiredNameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:kerberos' })), undefined)).subStatus).to.equal(STATUS.invalidNameIdPolicy);
  });

  it('else the format the request asks for, refused when tessera issues none such; else the metadata order; else unspecified', () => {
    expect(chooseNameIdFormat(sp(), { format: NAME_ID_FORMAT.transient })).to.equal(NAME_ID_FORMAT.transient);
    expect(refusal(() => chooseNameIdFormat(sp(), { format: 'urn:oasis:names:tc:SAML:1.1:nameid-format:X509SubjectName' })).subStatus).to.equal(STATUS.invalidNameIdPolicy);
    const listing = sp({ nameIdFormats: ['urn:oasis:names:tc:SAML:2.0:nameid-format:kerberos', NAME_ID_FORMAT.persistent, NAME_ID_FORMAT.transient] });
    expect(chooseNameIdFormat(listing, undefined)).to.equal(NAME_ID_FORMAT.persistent);
    expect(chooseNameIdFormat(listing, { allowCreate: true })).to.equal(NAME_ID_FORMAT.persistent);
    expect(chooseNameIdFormat(sp(), undefined)).to.equal(NAME_ID_FORMAT.unspecified);
  });

  it('a persistent id is pairwise and stable: the same for the user at the SP on every call, another at another SP or with another salt', () => {
    const id = nameIdValue(NAME_ID_FORMAT.persistent, user, SP_ID, secrets);
    expect(id).to.equal(nameIdValue(NAME_ID_FORMAT.persistent, user, SP_ID, { ...secrets, random: new SeededRandomSource('seed-99') }));
    // Apereo's and Shibboleth's algorithm: what a CAS server with the same salt gave this SP before.
    expect(id).to.equal(persistentId('casuser', SP_ID, 'salt of this IdP'));
    expect(id).to.not.equal(nameIdValue(NAME_ID_FORMAT.persistent, user, 'https://other.example.org/sp', secrets));
    expect(id).to.not.equal(nameIdValue(NAME_ID_FORMAT.persistent, user, SP_ID, { ...secrets, persistentIdSalt: 'another salt' }));
    expect(id).to.not.contain('casuser');
  });

  it('a transient id is new every time; email is the address; unspecified the released user name', () => {
    const first = nameIdValue(NAME_ID_FORMAT.transient, user, SP_ID, secrets);
    expect(first).to.match(/^_[0-9a-f]{40}$/);
    expect(nameIdValue(NAME_ID_FORMAT.transient, user, SP_ID, secrets)).to.not.equal(first);
    expect(nameIdValue(NAME_ID_FORMAT.email, user, SP_ID, secrets)).to.equal('casuser@example.org');
    expect(nameIdValue(NAME_ID_FORMAT.email, { username: 'alice@example.org', attributes: {} }, SP_ID, secrets)).to.equal('alice@example.org');
    expect(refusal(() => nameIdValue(NAME_ID_FORMAT.email, { username: 'bob', attributes: {} }, SP_ID, secrets)).subStatus).to.equal(STATUS.invalidNameIdPolicy);
    expect(nameIdValue(NAME_ID_FORMAT.unspecified, user, SP_ID, secrets)).to.equal('casuser');
  });
});

describe('saml2: requested authentication contexts', () => {
  const PPT = 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport';
  const PASSWORD = 'urn:oasis:names:tc:SAML:2.0:ac:classes:Password';
  const MFA = 'https://refeds.org/profile/mfa';

  it('exact, minimum, better and maximum over the classes tessera knows the strength of', () => {
    expect(meetsRequestedAuthnContext(undefined, PPT)).to.equal(true);
    expect(meetsRequestedAuthnContext({ classes: [PPT], comparison: 'exact' }, PPT)).to.equal(true);
    expect(meetsRequestedAuthnContext({ classes: [PASSWORD], comparison: 'exact' }, PPT)).to.equal(false);
    expect(meetsRequestedAuthnContext({ classes: [PASSWORD], comparison: 'minimum' }, PPT)).to.equal(true);
    expect(meetsRequestedAuthnContext({ classes: [MFA], comparison: 'minimum' }, PPT)).to.equal(false);
    expect(meetsRequestedAuthnContext({ classes: [PPT], comparison: 'better' }, PPT)).to.equal(false);
    expect(meetsRequestedAuthnContext({ classes: [PPT], comparison: 'better' }, MFA)).to.equal(true);
    expect(meetsRequestedAuthnContext({ classes: [PASSWORD], comparison: 'maximum' }, PPT)).to.equal(false);
    expect(meetsRequestedAuthnContext({ classes: ['urn:example:own-class'], comparison: 'minimum' }, PPT)).to.equal(false);
    expect(meetsRequestedAuthnContext({ classes: ['urn:example:own-class'], comparison: 'minimum' }, 'urn:example:own-class')).to.equal(true);
  });

  it("names the definition's requiredAuthenticationContextClass whatever the login proved, else what it proved", () => {
    expect(authnContextClassFor(MFA, PPT)).to.equal(MFA);
    expect(authnContextClassFor(undefined, PPT)).to.equal(PPT);
  });

  it('refuses with NoAuthnContext', () => {
    expect(refusal(() => checkRequestedAuthnContext({ classes: [MFA], comparison: 'exact' }, PPT)).subStatus).to.equal(STATUS.noAuthnContext);
  });
});

describe('saml2: a request in time and addressed here', () => {
  const NOW = Date.UTC(2026, 10, 21, 10, 0, 0);

  it('accepts an IssueInstant from max age + skew ago to skew ahead, and refuses outside it', () => {
    checkIssueInstant(NOW, NOW, 30, 300);
    checkIssueInstant(NOW + 30_000, NOW, 30, 300);
    checkIssueInstant(NOW - 330_000, NOW, 30, 300);
    expect(refusal(() => checkIssueInstant(NOW + 30_001, NOW, 30, 300)).reason).to.contain('in the future');
    expect(refusal(() => checkIssueInstant(NOW - 330_001, NOW, 30, 300)).reason).to.contain('too old');
  });

  it("takes a Destination that is this endpoint, and requires one of a signed request", () => {
    checkDestination('https://sso.example.org/cas/idp/profile/SAML2/POST/SSO', 'https://sso.example.org/cas/idp/profile/SAML2/POST/SSO', true);
    checkDestination(undefined, 'https://sso.example.org/cas/idp/profile/SAML2/POST/SSO', false);
    expect(refusal(() => checkDestination(undefined, 'https://sso.example.org/x', true)).reason).to.contain('must name its Destination');
    expect(refusal(() => checkDestination('https://evil.example.org/sso', 'https://sso.example.org/x', false)).reason).to.contain('is not this endpoint');
  });
});

describe('saml2: what an assertion says', () => {
  const NOW = Date.UTC(2026, 10, 21, 10, 0, 0);
  const policy = samlServiceProviderPolicy({
    assertionAudiences: ['urn:example:other-audience', SP_ID],
    attributeNameFormats: { mail: 'uri', eduPersonAffiliation: 'urn:example:own-format' },
    attributeFriendlyNames: { mail: 'email' },
    attributeValueTypes: { mail: 'XSURI', opaque: 'XSObject' },
  });

  it('addresses the chosen ACS, answers the request, limits audience and time, and carries the released attributes as the definition names them', () => {
    const content = assertionContent({
      idpEntityId: 'https://sso.example.org/cas/idp',
      sp: sp({}, policy),
      request: { id: '_req-1', issueInstant: NOW, issuer: SP_ID, forceAuthn: false, isPassive: false },
      assertionConsumerService: { binding: BINDING.post, location: ACS_POST, index: 1 },
      user: { username: 'casuser', attributes: { mail: ['casuser@example.org'], eduPersonAffiliation: ['member', 'staff'], opaque: ['x'], empty: [] } },
      nameId: { value: 'AAdz', format: NAME_ID_FORMAT.persistent, nameQualifier: 'https://sso.example.org/cas/idp', spNameQualifier: SP_ID },
      authenticatedAt: NOW - 60_000,
      sessionIndex: '_session',
      contextClassRef: 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport',
      now: NOW,
      lifetimeSeconds: 300,
      skewSeconds: 30,
      random: new SeededRandomSource('seed-1'),
    });
    expect(content.destination).to.equal(ACS_POST);
    expect(content.inResponseTo).to.equal('_req-1');
    expect(content.issuer).to.equal('https://sso.example.org/cas/idp');
    expect(content.responseId).to.match(/^_[0-9a-f]{40}$/);
    expect(content.assertionId).to.not.equal(content.responseId);
    expect(content.subjectConfirmation).to.deep.equal({ method: 'urn:oasis:names:tc:SAML:2.0:cm:bearer', recipient: ACS_POST, notOnOrAfter: NOW + 300_000, inResponseTo: '_req-1' });
    expect(content.conditions).to.deep.equal({ notBefore: NOW - 30_000, notOnOrAfter: NOW + 300_000, audiences: [SP_ID, 'urn:example:other-audience'] });
    expect(content.authnStatement).to.deep.equal({ authnInstant: NOW - 60_000, sessionIndex: '_session', contextClassRef: 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport' });
    expect(content.attributes).to.deep.equal([
      { name: 'mail', nameFormat: 'urn:oasis:names:tc:SAML:2.0:attrname-format:uri', friendlyName: 'email', valueType: 'xs:anyURI', values: ['casuser@example.org'] },
      { name: 'eduPersonAffiliation', nameFormat: 'urn:example:own-format', valueType: 'xs:string', values: ['member', 'staff'] },
      { name: 'opaque', nameFormat: 'urn:oasis:names:tc:SAML:2.0:attrname-format:unspecified', values: ['x'] },
    ]);
  });

  it('an unsolicited response answers no request, and the SP may know the IdP by another issuer', () => {
    const content = assertionContent({
      idpEntityId: 'https://sso.example.org/cas/idp',
      sp: sp({}, samlServiceProviderPolicy({ issuerEntityId: 'urn:example:idp-alias' })),
      assertionConsumerService: { binding: BINDING.post, location: ACS_POST },
      user: { username: 'casuser', attributes: {} },
      nameId: { value: 'casuser', format: NAME_ID_FORMAT.unspecified },
      authenticatedAt: NOW,
      sessionIndex: '_s',
      contextClassRef: 'urn:oasis:names:tc:SAML:2.0:ac:classes:unspecified',
      now: NOW,
      lifetimeSeconds: 60,
      skewSeconds: 0,
      random: new SeededRandomSource('seed-2'),
    });
    expect(content.inResponseTo).to.equal(undefined);
    expect(content.subjectConfirmation.inResponseTo).to.equal(undefined);
    expect(content.issuer).to.equal('urn:example:idp-alias');
    expect(content.attributes).to.deep.equal([]);
  });
});
