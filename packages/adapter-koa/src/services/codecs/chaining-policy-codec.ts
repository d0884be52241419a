import {
  CHAINING_ATTRIBUTE_RELEASE_POLICY,
  InvalidServiceDefinitionError,
  MERGING_POLICIES,
  type ChainingAttributes,
  type MergingPolicy,
  type OrderedReleasePolicy,
  type ServiceDefinitionProblem,
} from '@tessera/core';
import { isRecord, RELEASE_UNSUPPORTED } from './cas-service-keys.js';
import { javaInteger, javaList, javaMembers } from './java-collections.js';
import type { ServicePolicyCodec } from './policy-codec.js';

/**
 * Older CAS versions read `mergingPolicy` as a word, case ignored, with these synonyms; today's read
 * the names of MERGING_POLICIES. Either is read, and written back by today's name.
 */
const MERGING_SYNONYMS: Readonly<Record<string, MergingPolicy>> = {
  replace: 'REPLACE',
  overwrite: 'REPLACE',
  override: 'REPLACE',
  add: 'ADD',
  multivalued: 'MULTIVALUED',
  multi_valued: 'MULTIVALUED',
  combine: 'MULTIVALUED',
  merge: 'MULTIVALUED',
  source: 'SOURCE',
  none: 'SOURCE',
  destination: 'DESTINATION',
};

/** A policy held in a chain: its `order`, which only the chain reads, apart from its own keys. */
function withoutOrder(json: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { order: _order, ...rest } = json;
  return rest;
}

/**
 * `ChainingAttributeReleasePolicy`: `policies`, a list of release policies of any class the codec
 * reads (each with its `order`), and `mergingPolicy` (REPLACE when absent).
 */
export const chainingAttributesCodec: ServicePolicyCodec<ChainingAttributes> = {
  type: CHAINING_ATTRIBUTE_RELEASE_POLICY,
  // Its own `order` as every release policy's: a chain is one policy of the service.
  keys: { read: ['@class', 'policies', 'mergingPolicy'], unsupported: Object.fromEntries(Object.entries(RELEASE_UNSUPPORTED).filter(([key]) => key === 'order')) },
  keyProblemsInside(key, value, field, nested): ServiceDefinitionProblem[] {
    if (key !== 'policies') return [];
    return (javaMembers(value) ?? []).flatMap((inner, index) => (isRecord(inner) ? nested.releasePolicy(withoutOrder(inner), `${field}[${index}]`) : []));
  },
  parse(json, { fail, releasePolicy }) {
    // Every problem of the chain and of each policy it holds, not the first one's only.
    const problems: ServiceDefinitionProblem[] = [];
    const collect = <T>(read: () => T): T[] => {
      try {
        return [read()];
      } catch (error) {
        if (!(error instanceof InvalidServiceDefinitionError)) throw error;
        problems.push(...error.problems);
        return [];
      }
    };
    const [mergingPolicy] = collect(() => {
      const written = json['mergingPolicy'] ?? 'REPLACE';
      const read = typeof written === 'string' ? MERGING_SYNONYMS[written.trim().toLowerCase()] : undefined;
      if (!read) throw fail('mergingPolicy', `must be one of ${MERGING_POLICIES.join(', ')}`);
      return read;
    });
    const members = javaMembers(json['policies'] ?? []);
    if (!members) problems.push(...fail('policies', 'must be a list of attribute release policies').problems);
    const policies = (members ?? []).flatMap((inner, index) =>
      collect((): OrderedReleasePolicy => {
        const field = `policies[${index}]`;
        if (!isRecord(inner)) throw fail(field, 'must be an attribute release policy (an object with its @class)');
        const order = javaInteger(inner['order'] ?? 0);
        if (order === undefined) throw fail(`${field}.order`, 'must be an integer');
        return { order, policy: releasePolicy(withoutOrder(inner), field) };
      }),
    );
    const [first, ...more] = problems;
    if (first || !mergingPolicy) throw new InvalidServiceDefinitionError(first?.field ?? 'mergingPolicy', first?.problem ?? 'is required', ...more);
    return { policies, mergingPolicy };
  },
  render: (chain, nested) => ({
    ...(chain.mergingPolicy !== 'REPLACE' && { mergingPolicy: chain.mergingPolicy }),
    policies: javaList(chain.policies.map(({ order, policy }) => ({ ...nested.releasePolicy(policy), ...(order !== 0 && { order }) }))),
  }),
};
