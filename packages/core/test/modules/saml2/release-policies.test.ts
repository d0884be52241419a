import { expect } from 'chai';
import { persistentId, ServicePolicies, type ReleaseRequest, type RegisteredService } from '@tessera/core';
import {
  eduPersonTargetedIdRelease,
  ENTITY_CATEGORY,
  inCommonResearchAndScholarshipRelease,
  refedsResearchAndScholarshipRelease,
  SAML_RELEASE_POLICIES,
  SAML_RELEASE_POLICY_BEHAVIOURS,
} from '@tessera/core/modules/saml2';

const SP = 'https://sp.example.org/shibboleth';
const INCOMMON_RS = 'http://id.incommon.org/category/research-and-scholarship';
const REFEDS_RS = 'http://refeds.org/category/research-and-scholarship';
const policies = new ServicePolicies({ releasePolicies: SAML_RELEASE_POLICY_BEHAVIOURS, usernameProviders: [] });

function request(attributes: Record<string, string[]>, declared?: Record<string, string[]>): ReleaseRequest {
  return {
    principal: { id: 'casuser', attributes },
    service: {} as RegisteredService,
    serviceUrl: SP,
    authentication: { isFromNewLogin: ['true'] },
    ...(declared && { declared }),
  };
}

const USER = {
  uid: ['u1001'],
  eduPersonPrincipalName: ['casuser@example.org'],
  EMAIL: ['casuser@example.org'],
  displayName: ['Cas User'],
  givenName: ['Cas'],
  sn: ['User'],
  eduPersonScopedAffiliation: ['member@example.org'],
  memberOf: ['staff'],
};

describe("saml2's release policies (Apereo's SAML-specific classes)", () => {
  describe('EduPersonTargetedIdAttributeReleasePolicy', () => {
    const type = SAML_RELEASE_POLICIES.eduPersonTargetedId;

    it("releases eduPersonTargetedID alone: the persistent NameID's pairwise id over the principal id, the SP and the policy's salt", async () => {
      const released = await eduPersonTargetedIdRelease.release({ type, salt: 'salt-1' }, request(USER), policies);
      expect(released).to.deep.equal({ eduPersonTargetedID: [persistentId('casuser', SP, 'salt-1')], isFromNewLogin: ['true'] });
    });

    it("over the first value of `attribute` (found whatever its case), the principal id when the user has none", async () => {
      expect((await eduPersonTargetedIdRelease.release({ type, salt: 's', attribute: 'UID' }, request(USER), policies))['eduPersonTargetedID']).to.deep.equal([persistentId('u1001', SP, 's')]);
      expect((await eduPersonTargetedIdRelease.release({ type, salt: 's', attribute: 'uid' }, request({}), policies))['eduPersonTargetedID']).to.deep.equal([persistentId('casuser', SP, 's')]);
    });

    it('another salt, another id; useUniformResourceName names it by its URN', async () => {
      const one = await eduPersonTargetedIdRelease.release({ type, salt: 'one' }, request(USER), policies);
      const two = await eduPersonTargetedIdRelease.release({ type, salt: 'two', useUniformResourceName: true, authorizedToReleaseAuthenticationAttributes: false }, request(USER), policies);
      expect(two).to.deep.equal({ 'urn:oid:1.3.6.1.4.1.5923.1.1.1.10': [persistentId('casuser', SP, 'two')] });
      expect(one['eduPersonTargetedID']).to.not.deep.equal(two['urn:oid:1.3.6.1.4.1.5923.1.1.1.10']);
    });
  });

  describe('InCommonRSAttributeReleasePolicy and RefedsRSAttributeReleasePolicy', () => {
    const bundle = {
      eduPersonPrincipalName: ['casuser@example.org'],
      email: ['casuser@example.org'],
      displayName: ['Cas User'],
      givenName: ['Cas'],
      sn: ['User'],
      eduPersonScopedAffiliation: ['member@example.org'],
      isFromNewLogin: ['true'],
    };

    it("to an SP declaring its own category: the R&S bundle's attributes the user has, under the bundle's names; never memberOf or uid", async () => {
      expect(await refedsResearchAndScholarshipRelease.release({ type: SAML_RELEASE_POLICIES.refedsResearchAndScholarship }, request(USER, { [ENTITY_CATEGORY]: [REFEDS_RS] }), policies)).to.deep.equal(bundle);
      expect(await inCommonResearchAndScholarshipRelease.release({ type: SAML_RELEASE_POLICIES.inCommonResearchAndScholarship }, request(USER, { [ENTITY_CATEGORY]: ['other', INCOMMON_RS] }), policies)).to.deep.equal(bundle);
    });

    it("to an SP of no category, or of the other policy's: none of the user's attributes", async () => {
      const refeds = { type: SAML_RELEASE_POLICIES.refedsResearchAndScholarship };
      expect(await refedsResearchAndScholarshipRelease.release(refeds, request(USER, {}), policies)).to.deep.equal({ isFromNewLogin: ['true'] });
      expect(await refedsResearchAndScholarshipRelease.release(refeds, request(USER, { [ENTITY_CATEGORY]: [INCOMMON_RS] }), policies)).to.deep.equal({ isFromNewLogin: ['true'] });
      expect(await inCommonResearchAndScholarshipRelease.release({ type: SAML_RELEASE_POLICIES.inCommonResearchAndScholarship }, request(USER, { other: [INCOMMON_RS] }), policies)).to.deep.equal({ isFromNewLogin: ['true'] });
    });

    it("where no SP's metadata speaks (the consent page's list, a CAS service): the bundle, as Apereo falls back to its allowed attributes", async () => {
      expect(await refedsResearchAndScholarshipRelease.release({ type: SAML_RELEASE_POLICIES.refedsResearchAndScholarship }, request(USER), policies)).to.deep.equal(bundle);
    });

    it('useUniformResourceName: under their URNs', async () => {
      const released = await refedsResearchAndScholarshipRelease.release(
        { type: SAML_RELEASE_POLICIES.refedsResearchAndScholarship, useUniformResourceName: true, authorizedToReleaseAuthenticationAttributes: false },
        request({ eduPersonPrincipalName: ['casuser@example.org'], givenName: ['Cas'] }, { [ENTITY_CATEGORY]: [REFEDS_RS] }),
        policies,
      );
      expect(released).to.deep.equal({ 'urn:oid:1.3.6.1.4.1.5923.1.1.1.6': ['casuser@example.org'], 'urn:oid:2.5.4.42': ['Cas'] });
    });
  });
});
