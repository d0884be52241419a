import type { AttributeMap } from '../domain/authentication/principal.js';
import type { ServicePolicy } from '../domain/registry/registered-service.js';
import type { AttributeReleasePolicy } from '../ports/service-policies.js';
import { byOrder } from './attribute-filters.js';

export const CHAINING_ATTRIBUTE_RELEASE_POLICY = 'org.apereo.cas.services.ChainingAttributeReleasePolicy';

/**
 * How a chain puts a policy's release together with what the policies before it released, by CAS's
 * names: REPLACE (the default: the later policy's attribute wins), ADD (an attribute released already
 * keeps its values), MULTIVALUED (the values of both, each once, case ignored, sorted), SOURCE (what was
 * released already stays, nothing is added) and DESTINATION (only the later policy's release counts).
 */
export const MERGING_POLICIES = ['REPLACE', 'ADD', 'MULTIVALUED', 'SOURCE', 'DESTINATION'] as const;
export type MergingPolicy = (typeof MERGING_POLICIES)[number];

/** One policy of a chain and its `order` (the base class's; 0 unless written). */
export interface OrderedReleasePolicy {
  readonly order: number;
  readonly policy: ServicePolicy;
}

export interface ChainingAttributes extends ServicePolicy {
  /** As written; they run by `order`, ties in the order written. */
  readonly policies: readonly OrderedReleasePolicy[];
  readonly mergingPolicy: MergingPolicy;
}

/**
 * CAS's ChainingAttributeReleasePolicy: each policy in `order` releases from the principal's attributes
 * and what the policies before it released (a later policy sees an attribute an earlier one renamed),
 * its release merged into the chain's by `mergingPolicy`. The chain releases the authentication's
 * attributes once, at the end, as CAS's chain does whatever its policies say of them.
 */
export const chainingAttributes: AttributeReleasePolicy<ChainingAttributes> = {
  type: CHAINING_ATTRIBUTE_RELEASE_POLICY,
  async release(chain, request, policies) {
    let released: AttributeMap = {};
    for (const { policy } of byOrder(chain.policies)) {
      const principal = { ...request.principal, attributes: { ...request.principal.attributes, ...released } };
      const own = await policies.release(policy, { ...request, principal, authentication: {} });
      released = mergeReleases(chain.mergingPolicy, released, own);
    }
    return { ...released, ...request.authentication };
  },
};

/** `released` (the chain's so far) and `added` (the next policy's), put together as `merging` says. */
export function mergeReleases(merging: MergingPolicy, released: AttributeMap, added: AttributeMap): AttributeMap {
  switch (merging) {
    case 'REPLACE':
      return { ...released, ...added };
    case 'ADD':
      return { ...added, ...released };
    case 'SOURCE':
      return released;
    case 'DESTINATION':
      return added;
    case 'MULTIVALUED': {
      const merged: Record<string, readonly string[]> = { ...released };
      for (const [name, values] of Object.entries(added)) merged[name] = distinctSorted([...(released[name] ?? []), ...values]);
      return merged;
    }
  }
}

/** Each value once, case ignored (the first written wins), in code-unit order: CAS's distinct multi-valued merge. */
function distinctSorted(values: readonly string[]): string[] {
  const kept: string[] = [];
  for (const value of values) if (!kept.some((each) => each.toLowerCase() === value.toLowerCase())) kept.push(value);
  return kept.sort();
}
