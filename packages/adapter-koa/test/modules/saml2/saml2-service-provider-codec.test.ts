import { expect } from 'chai';
import { TOTP_SECOND_FACTOR } from '@tessera/core/modules/otp';
import { SAML_SERVICE_PROVIDER } from '@tessera/core/modules/saml2';
import { BUILT_IN_RELEASE_POLICY_CODECS, BUILT_IN_USERNAME_PROVIDER_CODECS, serviceCodec } from '../../../src/index.js';
import { samlServiceProviderType } from '../../../src/modules/saml2/index.js';
import { refusalOf } from '../../built-in-codec.js';

const codec = serviceCodec({ releasePolicies: BUILT_IN_RELEASE_POLICY_CODECS, usernameProviders: BUILT_IN_USERNAME_PROVIDER_CODECS, secondFactors: [TOTP_SECOND_FACTOR], serviceTypes: [samlServiceProviderType] });
const SAML = 'org.apereo.cas.support.saml.services.SamlRegisteredService';
/** As Apereo's saml2 scenarios write an SP. */
const SP = { '@class': SAML, id: 1, name: 'Sample', serviceId: 'https://sp.example.org/shibboleth', metadataLocation: '/etc/tessera/sp-metadata.xml' };

const problems = (json: Record<string, unknown>) => refusalOf(() => codec.parse(json));
const roundTrip = (json: Record<string, unknown>) => {
  const parsed = codec.parse(json);
  expect(codec.parse(codec.render({ ...parsed, id: 7 }))).to.deep.equal({ ...parsed, id: 7 });
  return SAML_SERVICE_PROVIDER.of(parsed);
};

// docs/services.md (SAML 2.0 service providers): Apereo's SamlRegisteredService, the saml2 module's service type.
describe('service definitions: SamlRegisteredService (the saml2 module)', () => {
  it("reads an SP with Apereo's defaults: only its metadata location is kept, and it matches no CAS service URL", () => {
    expect(roundTrip(SP)).to.deep.equal({ metadataLocation: '/etc/tessera/sp-metadata.xml' });
    expect(samlServiceProviderType.matchedByServiceUrl).to.equal(false);
    expect(roundTrip({ ...SP, metadataLocation: 'https://sp.example.org/Shibboleth.sso/Metadata', signAssertions: 'UNDEFINED', signResponses: 'TRUE', skewAllowance: 0, assertionAudiences: '' })).to.deep.equal({
      metadataLocation: 'https://sp.example.org/Shibboleth.sso/Metadata',
    });
  });

  it('reads every key tessera has, as Apereo writes them (TriStateBoolean strings, Java maps and lists, comma-separated audiences)', () => {
    const sp = roundTrip({
      ...SP,
      metadataSignatureLocation: 'file:///etc/tessera/federation-signer.pem',
      signAssertions: 'TRUE',
      signResponses: false,
      encryptAssertions: true,
      requiredNameIdFormat: 'transient',
      requiredAuthenticationContextClass: 'https://refeds.org/profile/mfa',
      attributeNameFormats: { '@class': 'java.util.HashMap', mail: 'uri', eduPersonPrincipalName: 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic' },
      attributeFriendlyNames: { '@class': 'java.util.TreeMap', 'urn:oid:0.9.2342.19200300.100.1.3': 'mail' },
      attributeValueTypes: { '@class': 'java.util.HashMap', age: 'XSInteger' },
      skewAllowance: '120',
      assertionAudiences: 'urn:federation:one, urn:federation:two',
      issuerEntityId: 'https://idp.example.org/alias',
      signingSignatureAlgorithms: ['java.util.ArrayList', ['http://www.w3.org/2001/04/xmldsig-more#rsa-sha512']],
      metadataExpirationDuration: 'PT60M',
      skipGeneratingSubjectConfirmationNotBefore: true,
    });
    expect(sp).to.deep.equal({
      metadataLocation: '/etc/tessera/sp-metadata.xml',
      metadataSignatureLocation: 'file:///etc/tessera/federation-signer.pem',
      signAssertions: true,
      signResponses: false,
      encryptAssertions: true,
      requiredNameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient',
      requiredAuthenticationContextClass: 'https://refeds.org/profile/mfa',
      attributeNameFormats: { mail: 'uri', eduPersonPrincipalName: 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic' },
      attributeFriendlyNames: { 'urn:oid:0.9.2342.19200300.100.1.3': 'mail' },
      attributeValueTypes: { age: 'XSInteger' },
      skewAllowanceSeconds: 120,
      assertionAudiences: ['urn:federation:one', 'urn:federation:two'],
      issuerEntityId: 'https://idp.example.org/alias',
      signingSignatureAlgorithms: ['http://www.w3.org/2001/04/xmldsig-more#rsa-sha512'],
    });
  });

  it('refuses, every problem at once and each saying why: no metadata, a plain http or machine-bound location, SHA-1, an unknown format or value type', () => {
    const { metadataLocation: _location, ...withoutMetadata } = SP;
    expect(problems(withoutMetadata)).to.deep.equal(["metadataLocation: is required: the SP's metadata, a file path or an https URL"]);
    expect(problems({ ...SP, metadataLocation: 'http://sp.example.org/metadata' })).to.deep.equal(['metadataLocation: is a plain http URL, which anyone on the way could change: use https, or save the metadata as a file']);
    expect(problems({ ...SP, metadataLocation: 'classpath:/sp-metadata.xml', metadataSignatureLocation: 'https://example.org/signer.pem' })).to.deep.equal([
      'metadataLocation: names a Spring expression or classpath resource of the machine it was written for: give a file path of this machine or an https URL',
      'metadataSignatureLocation: must be a file path holding the PEM certificate the metadata is signed with',
    ]);
    expect(
      problems({
        ...SP,
        signingSignatureAlgorithms: ['http://www.w3.org/2000/09/xmldsig#rsa-sha1'],
        requiredNameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:kerberos',
        attributeValueTypes: { mail: 'XSQName' },
        signAssertions: 'maybe',
        skewAllowance: -1,
      }),
    ).to.deep.equal([
      'signAssertions: must be true, false, or UNDEFINED',
      'requiredNameIdFormat: must be a NameID format tessera issues: urn:oasis:names:tc:SAML:2.0:nameid-format:persistent, urn:oasis:names:tc:SAML:2.0:nameid-format:transient, urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress, urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
      'attributeValueTypes.mail: must be one of XSString, XSURI, XSBoolean, XSInteger, XSDateTime, XSBase64Binary, XSObject',
      'skewAllowance: must be a number of seconds from 0 to 3600 (0: the saml2.skewSeconds setting)',
      'signingSignatureAlgorithms: holds http://www.w3.org/2000/09/xmldsig#rsa-sha1; tessera signs with http://www.w3.org/2001/04/xmldsig-more#rsa-sha256, http://www.w3.org/2001/04/xmldsig-more#rsa-sha512 (SHA-1 is broken for signatures)',
    ]);
  });

  it("refuses Apereo's keys tessera lacks, saying what it does instead, unless they ask for that; an SP's keys on a CAS service are unknown there", () => {
    expect(problems({ ...SP, encryptionOptional: true })).to.deep.equal(['encryptionOptional: not supported by tessera: an SP asking for encryption without an encryption certificate is refused, never answered in the clear; accepted only as false']);
    expect(problems({ ...SP, metadataCriteriaPattern: '^https://sp' })[0]).to.match(/^metadataCriteriaPattern: not supported by tessera: tessera reads the one EntityDescriptor/);
    expect(roundTrip({ ...SP, encryptionOptional: false, skipGeneratingTransientNameId: 'false', requireSignedRoot: true, signLogoutResponse: 'UNDEFINED', encryptableAttributes: ['java.util.HashSet', []] })).to.deep.equal({ metadataLocation: SP.metadataLocation });
    expect(problems({ '@class': 'org.apereo.cas.services.CasRegisteredService', id: 2, name: 'App', serviceId: '^https://app\\.example\\.org/.*', metadataLocation: '/etc/sp.xml' })[0]).to.match(/^metadataLocation: unknown key/);
  });

  it('names SAML2 among the protocols a definition may support', () => {
    expect(roundTrip({ ...SP, supportedProtocols: ['java.util.HashSet', ['SAML2']] })).to.deep.equal({ metadataLocation: SP.metadataLocation });
  });
});
