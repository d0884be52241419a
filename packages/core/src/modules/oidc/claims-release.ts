import type { ServicePolicy } from '../../domain/registry/registered-service.js';
import { CHAINING_ATTRIBUTE_RELEASE_POLICY, type ChainingAttributes, type OrderedReleasePolicy } from '../../service-policies/chaining-policy.js';
import { DENY_ALL_ATTRIBUTES } from '../../service-policies/built-in-policies.js';
import { CUSTOM_SCOPE_POLICY, scopeOf, STANDARD_SCOPE_POLICIES, type CustomScopeReleasePolicy, type StandardScope } from './scope-release-policies.js';

/** The standard scopes that release claims (`openid` releases only `sub`; `offline_access` none). */
const CLAIM_SCOPES: readonly string[] = ['profile', 'email', 'address', 'phone'];

/** The policies a service's release policy is made of: a chain's members, or the policy itself. */
function membersOf(policy: ServicePolicy): readonly ServicePolicy[] {
  return policy.type === CHAINING_ATTRIBUTE_RELEASE_POLICY ? (policy as ChainingAttributes).policies.map((member) => member.policy) : [policy];
}

/**
 * The release policy an OpenID Connect client's claims come from, as Apereo's OIDC support reconciles
 * a client's scopes with its release policy when it loads the service:
 *
 * - a client whose `scopes` are empty or only `openid` is scope-free: its own policy releases its
 *   claims whatever the scopes asked (its scope policies, if any, still each only for its scope);
 * - otherwise each scope it lists brings its claims: a standard scope (`profile`, `email`, `address`,
 *   `phone`) by the client's own scope policies of that scope, else by that scope's policy with its
 *   standard claims; a scope of the server's own (`declared`, the `oidc.scopes` setting) by the
 *   client's OidcCustomScopeAttributeReleasePolicy of that name, else with the claims the server
 *   declares for it; any other scope brings none. The client's policies that release by no scope
 *   then release nothing, as in Apereo, and a client whose scopes bring no policy gets no claim.
 *
 * Each scope policy releases only where its scope is granted (the grant of the release request).
 */
export function claimsReleasePolicy(policy: ServicePolicy, clientScopes: readonly string[], declared: Readonly<Record<string, readonly string[]>>): ServicePolicy {
  const scopes = [...new Set(clientScopes)];
  if (scopes.length === 0 || (scopes.length === 1 && scopes[0] === 'openid')) return policy;
  const own = membersOf(policy).filter((member) => scopeOf(member) !== undefined);
  const chosen: ServicePolicy[] = [];
  for (const scope of scopes) {
    const ownForScope = own.filter((member) => scopeOf(member) === scope);
    if (CLAIM_SCOPES.includes(scope)) {
      chosen.push(...(ownForScope.length > 0 ? ownForScope : [{ type: STANDARD_SCOPE_POLICIES[scope as StandardScope] }]));
    } else if (Object.hasOwn(declared, scope)) {
      const declaredPolicy: CustomScopeReleasePolicy = { type: CUSTOM_SCOPE_POLICY, scopeName: scope, allowedAttributes: declared[scope] ?? [] };
      chosen.push(...(ownForScope.length > 0 ? ownForScope : [declaredPolicy]));
    }
  }
  if (chosen.length === 0) return { type: DENY_ALL_ATTRIBUTES };
  const policies: OrderedReleasePolicy[] = chosen.map((member) => ({ order: 0, policy: member }));
  const chain: ChainingAttributes = { type: CHAINING_ATTRIBUTE_RELEASE_POLICY, policies, mergingPolicy: 'REPLACE' };
  return chain;
}
