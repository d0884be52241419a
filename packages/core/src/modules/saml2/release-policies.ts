import type { AttributeReleasePolicy } from '../../ports/service-policies.js';
import { valuesIgnoringCase } from '../../service-policies/attribute-names.js';
import { finishRelease, type ReleaseSettings } from '../../service-policies/release-settings.js';
import { persistentId } from '../../service-policies/username-providers.js';

const SAML_SERVICES = 'org.apereo.cas.support.saml.services';

/** Apereo's SAML-specific release policy classes tessera has. */
export const SAML_RELEASE_POLICIES = {
  eduPersonTargetedId: `${SAML_SERVICES}.EduPersonTargetedIdAttributeReleasePolicy`,
  inCommonResearchAndScholarship: `${SAML_SERVICES}.InCommonRSAttributeReleasePolicy`,
  refedsResearchAndScholarship: `${SAML_SERVICES}.RefedsRSAttributeReleasePolicy`,
} as const;

/** eduPersonTargetedID's name, and its URN (`useUniformResourceName`). */
export const EDU_PERSON_TARGETED_ID = { name: 'eduPersonTargetedID', urn: 'urn:oid:1.3.6.1.4.1.5923.1.1.1.10' } as const;

/** The entity attribute naming an SP's entity categories, in its metadata. */
export const ENTITY_CATEGORY = 'http://macedir.org/entity-category';

/**
 * The Research and Scholarship bundle, as Apereo's InCommonRS and RefedsRS policies define it: each
 * attribute's name and its URN (Apereo lists `email`/`mail` and `surname`/`sn` both, for either spelling).
 */
export const RESEARCH_AND_SCHOLARSHIP_ATTRIBUTES: Readonly<Record<string, string>> = {
  eduPersonPrincipalName: 'urn:oid:1.3.6.1.4.1.5923.1.1.1.6',
  eduPersonTargetedID: EDU_PERSON_TARGETED_ID.urn,
  email: 'urn:oid:0.9.2342.19200300.100.1.3',
  mail: 'urn:oid:0.9.2342.19200300.100.1.3',
  displayName: 'urn:oid:2.16.840.1.113730.3.1.241',
  givenName: 'urn:oid:2.5.4.42',
  surname: 'urn:oid:2.5.4.4',
  sn: 'urn:oid:2.5.4.4',
  eduPersonScopedAffiliation: 'urn:oid:1.3.6.1.4.1.5923.1.1.1.9',
};

/** The entity category each Research and Scholarship policy releases for. */
export const RESEARCH_AND_SCHOLARSHIP_CATEGORIES = {
  [SAML_RELEASE_POLICIES.inCommonResearchAndScholarship]: 'http://id.incommon.org/category/research-and-scholarship',
  [SAML_RELEASE_POLICIES.refedsResearchAndScholarship]: 'http://refeds.org/category/research-and-scholarship',
} as const;

/** EduPersonTargetedIdAttributeReleasePolicy: a pairwise id of the user at the SP, salted with the definition's own salt. */
export interface EduPersonTargetedIdRelease extends ReleaseSettings {
  readonly salt: string;
  /** The attribute whose first value the id is computed over; the principal id when absent or when the user has none. */
  readonly attribute?: string;
  /** Released as `urn:oid:1.3.6.1.4.1.5923.1.1.1.10` rather than `eduPersonTargetedID`. */
  readonly useUniformResourceName?: true;
}

/** InCommonRSAttributeReleasePolicy and RefedsRSAttributeReleasePolicy: the R&S bundle, to an SP of the category. */
export interface ResearchAndScholarshipRelease extends ReleaseSettings {
  /** Released under the attributes' URNs rather than their names. */
  readonly useUniformResourceName?: true;
}

/**
 * Apereo's EduPersonTargetedIdAttributeReleasePolicy: `eduPersonTargetedID`, the same pairwise id as a
 * persistent NameID (CAS's and Shibboleth's algorithm over the SP's entity id, the user and the salt),
 * over the first value of `attribute` or the principal id. It releases nothing else.
 */
export const eduPersonTargetedIdRelease: AttributeReleasePolicy<EduPersonTargetedIdRelease> = {
  type: SAML_RELEASE_POLICIES.eduPersonTargetedId,
  release(policy, { principal, serviceUrl, authentication }) {
    const subject = (policy.attribute === undefined ? undefined : valuesIgnoringCase(principal.attributes, policy.attribute)?.[0]) ?? principal.id;
    const name = policy.useUniformResourceName ? EDU_PERSON_TARGETED_ID.urn : EDU_PERSON_TARGETED_ID.name;
    return Promise.resolve(finishRelease(policy, { [name]: [persistentId(subject, serviceUrl, policy.salt)] }, authentication));
  },
};

/**
 * Apereo's InCommonRS and RefedsRS policies: to an SP whose metadata declares the policy's entity
 * category (`http://macedir.org/entity-category`), the user's attributes of the R&S bundle (found
 * whatever their case), under their names or URNs; to any other SP, none. Where no metadata speaks
 * (a release outside a SAML assertion: the consent page's list, a CAS service holding the policy),
 * the bundle, as Apereo's policies fall back to their allowed attributes.
 */
function researchAndScholarship(type: keyof typeof RESEARCH_AND_SCHOLARSHIP_CATEGORIES): AttributeReleasePolicy<ResearchAndScholarshipRelease> {
  const category = RESEARCH_AND_SCHOLARSHIP_CATEGORIES[type];
  return {
    type,
    release(policy, { principal, authentication, declared }) {
      const released: Record<string, readonly string[]> = {};
      if (declared === undefined || declared[ENTITY_CATEGORY]?.includes(category) === true) {
        for (const [name, urn] of Object.entries(RESEARCH_AND_SCHOLARSHIP_ATTRIBUTES)) {
          const values = valuesIgnoringCase(principal.attributes, name);
          if (values !== undefined) released[policy.useUniformResourceName ? urn : name] = values;
        }
      }
      return Promise.resolve(finishRelease(policy, released, authentication));
    },
  };
}

export const inCommonResearchAndScholarshipRelease = researchAndScholarship(SAML_RELEASE_POLICIES.inCommonResearchAndScholarship);
export const refedsResearchAndScholarshipRelease = researchAndScholarship(SAML_RELEASE_POLICIES.refedsResearchAndScholarship);

/** The saml2 module's release policies, each its behaviour (its codec part is adapter-koa's). */
export const SAML_RELEASE_POLICY_BEHAVIOURS: readonly AttributeReleasePolicy[] = [
  eduPersonTargetedIdRelease,
  inCommonResearchAndScholarshipRelease,
  refedsResearchAndScholarshipRelease,
];
