import type { AttributeMap } from '../../domain/authentication/principal.js';
import type { AttributeReleasePolicy } from '../../ports/service-policies.js';
import { valuesIgnoringCase } from '../../service-policies/attribute-names.js';
import { finishRelease, type ReleaseSettings } from '../../service-policies/release-settings.js';
import { STANDARD_SCOPE_CLAIMS } from './oidc-claims.js';

const CLAIMS = 'org.apereo.cas.oidc.claims';

/** Apereo's release policy classes of the standard scopes, each by the scope it releases for. */
export const STANDARD_SCOPE_POLICIES = {
  openid: `${CLAIMS}.OidcOpenIdScopeAttributeReleasePolicy`,
  profile: `${CLAIMS}.OidcProfileScopeAttributeReleasePolicy`,
  email: `${CLAIMS}.OidcEmailScopeAttributeReleasePolicy`,
  address: `${CLAIMS}.OidcAddressScopeAttributeReleasePolicy`,
  phone: `${CLAIMS}.OidcPhoneScopeAttributeReleasePolicy`,
} as const;
export type StandardScope = keyof typeof STANDARD_SCOPE_POLICIES;
export const CUSTOM_SCOPE_POLICY = `${CLAIMS}.OidcCustomScopeAttributeReleasePolicy`;

/** The claims a standard scope releases: those of OpenID Connect Core §5.4; `openid` releases none but `sub`, which is always there. */
export function standardScopeClaims(scope: StandardScope): readonly string[] {
  return scope === 'openid' ? [] : (STANDARD_SCOPE_CLAIMS[scope] ?? []);
}

/**
 * Apereo's scope release policies (BaseOidcScopeAttributeReleasePolicy): the claims of one scope,
 * released only where that scope is granted. Kept only when not their default.
 */
export interface ScopeReleasePolicy extends ReleaseSettings {
  /**
   * The claims released: for a standard scope, those of its claims written here (Apereo's claim
   * filtering), all of them when absent; for a custom scope, its claims.
   */
  readonly allowedAttributes?: readonly string[];
  /** Claim → the principal attribute it takes its values from (Apereo's `claimMappings`), before the server's claims map. */
  readonly claimMappings?: Readonly<Record<string, string>>;
}

/** OidcCustomScopeAttributeReleasePolicy: a scope of the deployment's own and its claims. */
export interface CustomScopeReleasePolicy extends ScopeReleasePolicy {
  readonly scopeName: string;
  readonly allowedAttributes: readonly string[];
}

/** The scope a scope policy releases for. */
export function scopeOf(policy: { readonly type: string; readonly scopeName?: unknown }): string | undefined {
  if (policy.type === CUSTOM_SCOPE_POLICY) return typeof policy.scopeName === 'string' ? policy.scopeName : undefined;
  return (Object.entries(STANDARD_SCOPE_POLICIES) as [StandardScope, string][]).find(([, type]) => type === policy.type)?.[0];
}

/**
 * Each claim's values, as Apereo's scope policies find them: from the attribute its `claimMappings`
 * names, else the attribute the server's claims map names, else the attribute of the claim's own name
 * (a mapped attribute the principal lacks falls back to that too); names found whatever their case.
 */
function claimValues(claims: readonly string[], attributes: AttributeMap, own: Readonly<Record<string, string>>, server: Readonly<Record<string, string>>): AttributeMap {
  const released: Record<string, readonly string[]> = {};
  for (const claim of claims) {
    const mapped = own[claim] ?? server[claim];
    const values = (mapped === undefined ? undefined : valuesIgnoringCase(attributes, mapped)) ?? valuesIgnoringCase(attributes, claim);
    if (values !== undefined) released[claim] = values;
  }
  return released;
}

function scopePolicy<P extends ScopeReleasePolicy>(type: string, claimsOf: (policy: P) => readonly string[], scope: (policy: P) => string): AttributeReleasePolicy<P> {
  return {
    type,
    release(policy, { principal, authentication, grant }) {
      // Outside a grant (no scopes to go by) it releases as if its scope were granted.
      if (grant !== undefined && !grant.scopes.includes(scope(policy))) return Promise.resolve({});
      const released = claimValues(claimsOf(policy), principal.attributes, policy.claimMappings ?? {}, grant?.claimsMap ?? {});
      return Promise.resolve(finishRelease(policy, released, authentication));
    },
  };
}

const standardPolicy = (scope: StandardScope) =>
  scopePolicy<ScopeReleasePolicy>(STANDARD_SCOPE_POLICIES[scope], (policy) => policy.allowedAttributes ?? standardScopeClaims(scope), () => scope);

/** The six scope release policies of Apereo's OIDC support, by class. */
export const SCOPE_RELEASE_POLICIES: readonly AttributeReleasePolicy[] = [
  ...(Object.keys(STANDARD_SCOPE_POLICIES) as StandardScope[]).map((scope) => standardPolicy(scope) as AttributeReleasePolicy),
  scopePolicy<CustomScopeReleasePolicy>(CUSTOM_SCOPE_POLICY, (policy) => policy.allowedAttributes, (policy) => policy.scopeName),
];
