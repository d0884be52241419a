import {
  ANONYMOUS_USERNAME_PROVIDER,
  CANONICALIZATION_MODES,
  PRINCIPAL_ATTRIBUTE_USERNAME_PROVIDER,
  SHIBBOLETH_PERSISTENT_ID_GENERATOR,
  type AnonymousUsername,
  type CanonicalizationMode,
  type PrincipalAttributeUsername,
  type ServiceDefinitionProblem,
} from '@tessera/core';
import { is, isClass, isRecord, keyProblems, type Unsupported } from './cas-service-keys.js';
import type { ServicePolicyCodec } from './policy-codec.js';

const NEVER_ENCRYPTED: Unsupported = { instead: 'the user name is never encrypted for a service', accepted: { when: is(false), as: 'false' } };

/** `PrincipalAttributeRegisteredServiceUsernameProvider`: `usernameAttribute` (required), `canonicalizationMode` (NONE, UPPER or LOWER). */
export const principalAttributeUsernameCodec: ServicePolicyCodec<PrincipalAttributeUsername> = {
  type: PRINCIPAL_ATTRIBUTE_USERNAME_PROVIDER,
  keys: { read: ['@class', 'usernameAttribute', 'canonicalizationMode', 'removePattern', 'scope'], unsupported: { encryptUsername: NEVER_ENCRYPTED } },
  parse(json, { fail }) {
    const usernameAttribute = json['usernameAttribute'];
    if (typeof usernameAttribute !== 'string' || usernameAttribute.trim() === '') throw fail('usernameAttribute', 'is required (the principal attribute whose value is the user name)');
    const canonicalizationMode = json['canonicalizationMode'] ?? 'NONE';
    if (!CANONICALIZATION_MODES.includes(canonicalizationMode as CanonicalizationMode)) throw fail('canonicalizationMode', `must be one of ${CANONICALIZATION_MODES.join(', ')}`);
    const removePattern = json['removePattern'] ?? undefined;
    if (removePattern !== undefined && (typeof removePattern !== 'string' || !isRegularExpression(removePattern))) throw fail('removePattern', 'must be a regular expression');
    const scope = json['scope'] ?? undefined;
    if (scope !== undefined && (typeof scope !== 'string' || scope.trim() === '')) throw fail('scope', 'must be the text put after @ in the user name');
    return {
      usernameAttribute,
      canonicalizationMode: canonicalizationMode as CanonicalizationMode,
      ...(removePattern !== undefined && { removePattern: removePattern }),
      ...(scope !== undefined && { scope: scope }),
    };
  },
  render: (provider) => ({
    usernameAttribute: provider.usernameAttribute,
    ...(provider.canonicalizationMode !== 'NONE' && { canonicalizationMode: provider.canonicalizationMode }),
    ...(provider.removePattern !== undefined && { removePattern: provider.removePattern }),
    ...(provider.scope !== undefined && { scope: provider.scope }),
  }),
};

const GENERATOR_KEYS = { read: ['@class', 'salt', 'attribute'] };

/**
 * `AnonymousRegisteredServiceUsernameAttributeProvider`: `persistentIdGenerator`, a
 * `ShibbolethCompatiblePersistentIdGenerator` with its `salt` (required: CAS draws one at random
 * without it, so every start would give users other ids) and an optional `attribute`.
 */
export const anonymousUsernameCodec: ServicePolicyCodec<AnonymousUsername> = {
  type: ANONYMOUS_USERNAME_PROVIDER,
  keys: {
    read: ['@class', 'persistentIdGenerator'],
    unsupported: {
      encryptUsername: NEVER_ENCRYPTED,
      canonicalizationMode: { instead: 'the opaque id is given as it is made', accepted: { when: is('NONE'), as: 'NONE' } },
    },
  },
  keyProblemsInside(key, value, field): ServiceDefinitionProblem[] {
    return key === 'persistentIdGenerator' && isRecord(value) && isClass(value['@class'], 'ShibbolethCompatiblePersistentIdGenerator') ? keyProblems(value, GENERATOR_KEYS, `${field}.`) : [];
  },
  parse(json, { fail }) {
    const generator = json['persistentIdGenerator'];
    if (!isRecord(generator)) throw fail('persistentIdGenerator', `is required: a ${SHIBBOLETH_PERSISTENT_ID_GENERATOR} with its salt`);
    if (!isClass(generator['@class'], 'ShibbolethCompatiblePersistentIdGenerator')) throw fail('persistentIdGenerator.@class', `must be ${SHIBBOLETH_PERSISTENT_ID_GENERATOR}`);
    const salt = generator['salt'];
    if (typeof salt !== 'string' || salt === '') throw fail('persistentIdGenerator.salt', 'is required: without one CAS draws a salt at random, and every start would give users other ids');
    const attribute = generator['attribute'] ?? undefined;
    if (attribute !== undefined && (typeof attribute !== 'string' || attribute === '')) throw fail('persistentIdGenerator.attribute', 'must be an attribute name');
    return { salt, ...(attribute !== undefined && { attribute }) };
  },
  render: (provider) => ({
    persistentIdGenerator: { '@class': SHIBBOLETH_PERSISTENT_ID_GENERATOR, salt: provider.salt, ...(provider.attribute !== undefined && { attribute: provider.attribute }) },
  }),
};

function isRegularExpression(pattern: string): boolean {
  try {
    new RegExp(pattern, 'gs');
    return true;
  } catch {
    return false;
  }
}
