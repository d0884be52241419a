import { expect } from 'chai';
import { SAML_RELEASE_POLICIES } from '@tessera/core/modules/saml2';
import { BUILT_IN_RELEASE_POLICY_CODECS, BUILT_IN_USERNAME_PROVIDER_CODECS, serviceCodec } from '../../../src/index.js';
import { SAML_RELEASE_POLICY_PARTS, samlServiceProviderType } from '../../../src/modules/saml2/index.js';
import { refusalOf } from '../../built-in-codec.js';

const codec = serviceCodec({
  releasePolicies: [...BUILT_IN_RELEASE_POLICY_CODECS, ...SAML_RELEASE_POLICY_PARTS.map((part) => part.codec)],
  usernameProviders: BUILT_IN_USERNAME_PROVIDER_CODECS,
  serviceTypes: [samlServiceProviderType],
});
const SERVICES = 'org.apereo.cas.support.saml.services';
const SP = { '@class': `${SERVICES}.SamlRegisteredService`, id: 1, name: 'Sample', serviceId: 'https://sp.example.org/shibboleth', metadataLocation: '/etc/tessera/sp-metadata.xml' };
const withPolicy = (attributeReleasePolicy: Record<string, unknown>) => ({ ...SP, attributeReleasePolicy });
const problems = (json: Record<string, unknown>) => refusalOf(() => codec.parse(json));
const roundTrip = (json: Record<string, unknown>) => {
  const parsed = codec.parse(json);
  expect(codec.parse(codec.render({ ...parsed, id: 7 }))).to.deep.equal({ ...parsed, id: 7 });
  return parsed.attributeRelease;
};

// docs/modules/saml2.md (Release policies of SAML): the classes as Apereo's files write them, read and refused.
describe("service definitions: Apereo's SAML release policies (the saml2 module)", () => {
  it('reads EduPersonTargetedIdAttributeReleasePolicy as Apereo writes it: salt, attribute (empty: the principal id), useUniformResourceName', () => {
    expect(roundTrip(withPolicy({ '@class': `${SERVICES}.EduPersonTargetedIdAttributeReleasePolicy`, salt: 'OqmG80fEKBQt', attribute: '' }))).to.deep.equal({ type: SAML_RELEASE_POLICIES.eduPersonTargetedId, salt: 'OqmG80fEKBQt' });
    expect(roundTrip(withPolicy({ '@class': `${SERVICES}.EduPersonTargetedIdAttributeReleasePolicy`, salt: 's', attribute: 'uid', useUniformResourceName: true }))).to.deep.equal({
      type: SAML_RELEASE_POLICIES.eduPersonTargetedId,
      salt: 's',
      attribute: 'uid',
      useUniformResourceName: true,
    });
  });

  it('reads the R&S policies alone or in a chain, as the saml2-idp-login scenario writes them', () => {
    expect(roundTrip(withPolicy({ '@class': `${SERVICES}.InCommonRSAttributeReleasePolicy`, useUniformResourceName: false }))).to.deep.equal({ type: SAML_RELEASE_POLICIES.inCommonResearchAndScholarship });
    const chain = roundTrip(
      withPolicy({
        '@class': 'org.apereo.cas.services.ChainingAttributeReleasePolicy',
        mergingPolicy: 'ADD',
        policies: ['java.util.ArrayList', [{ '@class': 'org.apereo.cas.services.ReturnAllAttributeReleasePolicy' }, { '@class': `${SERVICES}.RefedsRSAttributeReleasePolicy`, useUniformResourceName: true }]],
      }),
    ) as unknown as { policies: { policy: unknown }[] };
    expect(chain.policies[1]!.policy).to.deep.equal({ type: SAML_RELEASE_POLICIES.refedsResearchAndScholarship, useUniformResourceName: true });
  });

  it('refuses an EduPersonTargetedId policy without its salt, with a Spring expression, and keys the R&S classes do not read', () => {
    expect(problems(withPolicy({ '@class': `${SERVICES}.EduPersonTargetedIdAttributeReleasePolicy`, attribute: 'uid' }))).to.deep.equal([
      'attributeReleasePolicy.salt: is required: the secret every eduPersonTargetedID of this SP is salted with',
    ]);
    expect(problems(withPolicy({ '@class': `${SERVICES}.EduPersonTargetedIdAttributeReleasePolicy`, salt: "${#env['SALT']}" }))).to.deep.equal(['attributeReleasePolicy.salt: names a Spring expression: write the salt itself']);
    expect(problems(withPolicy({ '@class': `${SERVICES}.RefedsRSAttributeReleasePolicy`, useUniformResourceName: 'yes' }))).to.deep.equal(['attributeReleasePolicy.useUniformResourceName: must be true or false']);
    expect(problems(withPolicy({ '@class': `${SERVICES}.InCommonRSAttributeReleasePolicy`, allowedAttributes: ['java.util.ArrayList', ['memberOf']] }))[0]).to.match(/^attributeReleasePolicy\.allowedAttributes: /);
    expect(problems(withPolicy({ '@class': `${SERVICES}.MetadataEntityAttributesAttributeReleasePolicy` }))[0]).to.match(/^attributeReleasePolicy\.@class: must be .*EduPersonTargetedIdAttributeReleasePolicy, InCommonRSAttributeReleasePolicy or RefedsRSAttributeReleasePolicy/);
  });

  it("refuses a metadata location holding a Spring expression anywhere (Apereo's scenarios' file:${...}), or an MDQ template", () => {
    expect(problems({ ...SP, metadataLocation: "file://${#environmentVariables['PWD']}/sp-metadata.xml" })).to.deep.equal([
      'metadataLocation: names a Spring expression or classpath resource of the machine it was written for: give a file path of this machine or an https URL',
    ]);
    expect(problems({ ...SP, metadataSignatureLocation: "file:${#systemProperties['user.dir']}/signer.pem" })).to.deep.equal([
      'metadataSignatureLocation: names a Spring expression or classpath resource of the machine it was written for: give a file path of this machine',
    ]);
    expect(problems({ ...SP, metadataLocation: 'https://mdq.incommon.org/entities/{0}' })).to.deep.equal([
      "metadataLocation: is a metadata query (MDQ) URL template: tessera reads one SP's metadata from a file or an https URL",
    ]);
  });
});
