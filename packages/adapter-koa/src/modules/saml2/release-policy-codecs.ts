import {
  SAML_RELEASE_POLICIES,
  SAML_RELEASE_POLICY_BEHAVIOURS,
  type EduPersonTargetedIdRelease,
  type ResearchAndScholarshipRelease,
} from '@tessera/core/modules/saml2';
import { RELEASE_UNSUPPORTED } from '../../services/codecs/cas-service-keys.js';
import type { PolicyParsing, ServicePolicyCodec } from '../../services/codecs/policy-codec.js';
import { parseReleaseSettings, RELEASE_SETTINGS_KEYS, releaseSettingsKeyProblems, renderReleaseSettings } from '../../services/codecs/release-settings-codec.js';

/** A Spring expression or a Groovy script cannot be read here: a value must be written out. */
const NOT_WRITTEN_OUT = /\$\{|^\s*groovy\s*\{/i;

/** `useUniformResourceName`: true, false or absent (false), as Jackson reads a boolean. */
function uniformResourceName(json: Readonly<Record<string, unknown>>, fail: PolicyParsing['fail']): { useUniformResourceName?: true } {
  const value = json['useUniformResourceName'] ?? false;
  if (typeof value !== 'boolean') throw fail('useUniformResourceName', 'must be true or false');
  return value ? { useUniformResourceName: true } : {};
}

/** `EduPersonTargetedIdAttributeReleasePolicy`: `salt` (required), `attribute`, `useUniformResourceName`, and the base class's settings. */
export const eduPersonTargetedIdCodec: ServicePolicyCodec<EduPersonTargetedIdRelease> = {
  type: SAML_RELEASE_POLICIES.eduPersonTargetedId,
  keys: { read: ['@class', 'salt', 'attribute', 'useUniformResourceName', ...RELEASE_SETTINGS_KEYS], unsupported: RELEASE_UNSUPPORTED },
  keyProblemsInside: releaseSettingsKeyProblems,
  parse(json, { fail }) {
    const salt = json['salt'];
    if (typeof salt !== 'string' || salt === '') throw fail('salt', 'is required: the secret every eduPersonTargetedID of this SP is salted with');
    if (NOT_WRITTEN_OUT.test(salt)) throw fail('salt', 'names a Spring expression: write the salt itself');
    const attribute = json['attribute'] ?? '';
    if (typeof attribute !== 'string' || NOT_WRITTEN_OUT.test(attribute)) throw fail('attribute', 'must be the name of the attribute the id is computed over (empty: the principal id)');
    return { salt, ...(attribute.trim() !== '' && { attribute: attribute.trim() }), ...uniformResourceName(json, fail), ...parseReleaseSettings(json, fail) };
  },
  render: (policy) => ({
    salt: policy.salt,
    ...(policy.attribute !== undefined && { attribute: policy.attribute }),
    ...(policy.useUniformResourceName && { useUniformResourceName: true }),
    ...renderReleaseSettings(policy),
  }),
};

/**
 * `InCommonRSAttributeReleasePolicy` and `RefedsRSAttributeReleasePolicy`: `useUniformResourceName` and
 * the base class's settings. Their attributes and entity category are the class's own (Apereo writes none
 * of them), so `allowedAttributes`, `entityAttribute` and the like are refused as keys they do not read.
 */
function researchAndScholarshipCodec(type: string): ServicePolicyCodec<ResearchAndScholarshipRelease> {
  return {
    type,
    keys: { read: ['@class', 'useUniformResourceName', ...RELEASE_SETTINGS_KEYS], unsupported: RELEASE_UNSUPPORTED },
    keyProblemsInside: releaseSettingsKeyProblems,
    parse: (json, { fail }) => ({ ...uniformResourceName(json, fail), ...parseReleaseSettings(json, fail) }),
    render: (policy) => ({ ...(policy.useUniformResourceName && { useUniformResourceName: true }), ...renderReleaseSettings(policy) }),
  };
}

const CODECS: readonly ServicePolicyCodec[] = [
  eduPersonTargetedIdCodec,
  researchAndScholarshipCodec(SAML_RELEASE_POLICIES.inCommonResearchAndScholarship),
  researchAndScholarshipCodec(SAML_RELEASE_POLICIES.refedsResearchAndScholarship),
];

/** The saml2 module's release policies, each its behaviour and its codec part, as a module declares them. */
export const SAML_RELEASE_POLICY_PARTS = SAML_RELEASE_POLICY_BEHAVIOURS.map((behaviour) => {
  const codec = CODECS.find((candidate) => candidate.type === behaviour.type);
  if (!codec) throw new Error(`${behaviour.type} has no codec part`);
  return { behaviour, codec };
});
