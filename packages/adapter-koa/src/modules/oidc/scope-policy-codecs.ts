import {
  CUSTOM_SCOPE_POLICY,
  STANDARD_SCOPE_POLICIES,
  standardScopeClaims,
  type CustomScopeReleasePolicy,
  type ScopeReleasePolicy,
  type StandardScope,
} from '@tessera/core/modules/oidc';
import { isRecord, RELEASE_UNSUPPORTED } from '../../services/codecs/cas-service-keys.js';
import { javaList, stringList } from '../../services/codecs/java-collections.js';
import type { PolicyParsing, ServicePolicyCodec } from '../../services/codecs/policy-codec.js';
import { parseReleaseSettings, RELEASE_SETTINGS_KEYS, releaseSettingsKeyProblems, renderReleaseSettings } from '../../services/codecs/release-settings-codec.js';

const SCRIPTED = /^\s*groovy\s*\{|^\s*(file|classpath):|\.groovy\s*$/i;
const NAME = /^[A-Za-z0-9_.:-]{1,64}$/;

/** `claimMappings`: claim → the attribute it takes its values from (a Java map as Apereo writes one); a Groovy script cannot run here. */
function parseClaimMappings(json: Readonly<Record<string, unknown>>, fail: PolicyParsing['fail']): Record<string, string> | undefined {
  const value = json['claimMappings'];
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) throw fail('claimMappings', 'must map claim names to the attributes they take their values from');
  const mappings: Record<string, string> = {};
  for (const [claim, attribute] of Object.entries(value)) {
    if (claim === '@class') continue;
    if (typeof attribute !== 'string' || attribute.trim() === '') throw fail(`claimMappings.${claim}`, 'must be the name of the attribute the claim takes its values from');
    if (SCRIPTED.test(attribute)) throw fail(`claimMappings.${claim}`, 'a Groovy script cannot run in tessera; write the name of the attribute the claim takes its values from');
    mappings[claim] = attribute;
  }
  return Object.keys(mappings).length > 0 ? mappings : undefined;
}

function renderScopeSettings(policy: ScopeReleasePolicy): Record<string, unknown> {
  return {
    ...(policy.allowedAttributes !== undefined && { allowedAttributes: javaList(policy.allowedAttributes) }),
    ...(policy.claimMappings !== undefined && { claimMappings: { '@class': 'java.util.TreeMap', ...policy.claimMappings } }),
    ...renderReleaseSettings(policy),
  };
}

const KEYS = ['@class', 'allowedAttributes', 'claimMappings', ...RELEASE_SETTINGS_KEYS];

/**
 * A standard scope's policy (`OidcProfileScopeAttributeReleasePolicy` and the like): `allowedAttributes`,
 * some of the scope's claims to release only those (Apereo's claim filtering), `claimMappings`, and
 * the base class's settings. `openid` releases no claim of its own: it takes no `allowedAttributes`.
 */
function standardScopeCodec(scope: StandardScope): ServicePolicyCodec<ScopeReleasePolicy> {
  const claims = standardScopeClaims(scope);
  return {
    type: STANDARD_SCOPE_POLICIES[scope],
    keys: { read: KEYS, elsewhere: { scopeName: 'OidcCustomScopeAttributeReleasePolicy' }, unsupported: RELEASE_UNSUPPORTED },
    keyProblemsInside: releaseSettingsKeyProblems,
    parse(json, { fail }) {
      const written = json['allowedAttributes'];
      const allowed = written === undefined || written === null ? undefined : stringList(written);
      if (allowed === undefined && written !== undefined && written !== null) throw fail('allowedAttributes', `must be a list of claims of the ${scope} scope`);
      const stranger = allowed?.find((claim) => !claims.includes(claim));
      if (stranger !== undefined) {
        throw fail('allowedAttributes', `holds ${JSON.stringify(stranger)}, no claim of the ${scope} scope (${claims.join(', ') || 'none but sub'}); release it with OidcCustomScopeAttributeReleasePolicy`);
      }
      const claimMappings = parseClaimMappings(json, fail);
      return { ...(allowed !== undefined && { allowedAttributes: allowed }), ...(claimMappings && { claimMappings }), ...parseReleaseSettings(json, fail) };
    },
    render: renderScopeSettings,
  };
}

/** `OidcCustomScopeAttributeReleasePolicy`: `scopeName`, its claims (`allowedAttributes`), `claimMappings`, and the base class's settings. */
export const customScopeCodec: ServicePolicyCodec<CustomScopeReleasePolicy> = {
  type: CUSTOM_SCOPE_POLICY,
  keys: { read: [...KEYS, 'scopeName'], unsupported: RELEASE_UNSUPPORTED },
  keyProblemsInside: releaseSettingsKeyProblems,
  parse(json, { fail }) {
    const scopeName = json['scopeName'];
    if (typeof scopeName !== 'string' || !NAME.test(scopeName)) throw fail('scopeName', 'is required: the name of the scope, up to 64 letters, digits and _ . : -');
    const allowedAttributes = stringList(json['allowedAttributes'] ?? []);
    if (!allowedAttributes) throw fail('allowedAttributes', 'must be a list of the claims the scope releases');
    const claimMappings = parseClaimMappings(json, fail);
    return { scopeName, allowedAttributes, ...(claimMappings && { claimMappings }), ...parseReleaseSettings(json, fail) };
  },
  render: (policy) => ({ scopeName: policy.scopeName, ...renderScopeSettings(policy), allowedAttributes: javaList(policy.allowedAttributes) }),
};

/** The codec parts of Apereo's scope release policies, in the order a refusal names them. */
export const SCOPE_POLICY_CODECS: readonly ServicePolicyCodec[] = [
  ...(Object.keys(STANDARD_SCOPE_POLICIES) as StandardScope[]).map((scope) => standardScopeCodec(scope) as ServicePolicyCodec),
  customScopeCodec,
];
