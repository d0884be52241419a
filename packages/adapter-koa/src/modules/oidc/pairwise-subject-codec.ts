import { OIDC_PAIRWISE_ID_GENERATOR, PAIRWISE_USERNAME_PROVIDER, type PairwiseUsername } from '@tessera/core/modules/oidc';
import type { ServiceDefinitionProblem } from '@tessera/core';
import { is, isClass, isRecord, keyProblems } from '../../services/codecs/cas-service-keys.js';
import type { ServicePolicyCodec } from '../../services/codecs/policy-codec.js';

const GENERATOR_KEYS = { read: ['@class', 'salt'] };

/**
 * Apereo's `PairwiseOidcRegisteredServiceUsernameAttributeProvider`: `persistentIdGenerator`, an
 * `OidcPairwisePersistentIdGenerator` with its `salt` (required: CAS draws one at random without it,
 * and every start would give users other subjects).
 */
export const pairwiseUsernameCodec: ServicePolicyCodec<PairwiseUsername> = {
  type: PAIRWISE_USERNAME_PROVIDER,
  keys: {
    read: ['@class', 'persistentIdGenerator'],
    unsupported: {
      encryptUsername: { instead: 'the subject is never encrypted for a client', accepted: { when: is(false), as: 'false' } },
      canonicalizationMode: { instead: 'the pairwise subject is given as it is made', accepted: { when: is('NONE'), as: 'NONE' } },
    },
  },
  keyProblemsInside(key, value, field): ServiceDefinitionProblem[] {
    return key === 'persistentIdGenerator' && isRecord(value) && isClass(value['@class'], 'OidcPairwisePersistentIdGenerator') ? keyProblems(value, GENERATOR_KEYS, `${field}.`) : [];
  },
  parse(json, { fail }) {
    const generator = json['persistentIdGenerator'];
    if (!isRecord(generator)) throw fail('persistentIdGenerator', `is required: a ${OIDC_PAIRWISE_ID_GENERATOR} with its salt`);
    if (!isClass(generator['@class'], 'OidcPairwisePersistentIdGenerator')) throw fail('persistentIdGenerator.@class', `must be ${OIDC_PAIRWISE_ID_GENERATOR}`);
    const salt = generator['salt'];
    if (typeof salt !== 'string' || salt === '') throw fail('persistentIdGenerator.salt', 'is required: without one CAS draws a salt at random, and every start would give users other subjects');
    return { salt };
  },
  render: (provider) => ({ persistentIdGenerator: { '@class': OIDC_PAIRWISE_ID_GENERATOR, salt: provider.salt } }),
};
