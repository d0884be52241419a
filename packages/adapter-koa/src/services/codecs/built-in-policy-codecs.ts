import {
  DEFAULT_USERNAME_PROVIDER_TYPE,
  DENY_ALL_ATTRIBUTES,
  RETURN_ALL_ATTRIBUTES,
  RETURN_ALLOWED_ATTRIBUTES,
  type ReturnAllowedAttributes,
} from '@tessera/core';
import { is, RELEASE_UNSUPPORTED } from './cas-service-keys.js';
import { javaList, stringList } from './java-collections.js';
import type { ServicePolicyCodec } from './policy-codec.js';

const CLASS_ONLY = ['@class'];

/** `ReturnAllAttributeReleasePolicy`: nothing but its class. */
export const returnAllAttributesCodec: ServicePolicyCodec = {
  type: RETURN_ALL_ATTRIBUTES,
  keys: { read: CLASS_ONLY, unsupported: RELEASE_UNSUPPORTED },
  parse: () => ({}),
  render: () => ({}),
};

/** `ReturnAllowedAttributeReleasePolicy`: `allowedAttributes`, a list of names (none when absent). */
export const returnAllowedAttributesCodec: ServicePolicyCodec<ReturnAllowedAttributes> = {
  type: RETURN_ALLOWED_ATTRIBUTES,
  keys: { read: [...CLASS_ONLY, 'allowedAttributes'], unsupported: RELEASE_UNSUPPORTED },
  parse(json, { fail }) {
    const allowedAttributes = stringList(json['allowedAttributes'] ?? []);
    if (!allowedAttributes) throw fail('allowedAttributes', 'must be a list of attribute names');
    return { allowedAttributes };
  },
  render: (policy) => ({ allowedAttributes: javaList(policy.allowedAttributes) }),
};

/** `DenyAllAttributeReleasePolicy`: nothing but its class. */
export const denyAllAttributesCodec: ServicePolicyCodec = {
  type: DENY_ALL_ATTRIBUTES,
  keys: { read: CLASS_ONLY, unsupported: RELEASE_UNSUPPORTED },
  parse: () => ({}),
  render: () => ({}),
};

const PRINCIPAL_ID_AS_IT_IS = 'the user name is the principal id as it is';

/** `DefaultRegisteredServiceUsernameProvider`: its class, and its options only as their defaults. */
export const defaultUsernameProviderCodec: ServicePolicyCodec = {
  type: DEFAULT_USERNAME_PROVIDER_TYPE,
  keys: {
    read: CLASS_ONLY,
    unsupported: {
      canonicalizationMode: { instead: PRINCIPAL_ID_AS_IT_IS, accepted: { when: is('NONE'), as: 'NONE' } },
      encryptUsername: { instead: 'the user name is never encrypted for a service', accepted: { when: is(false), as: 'false' } },
    },
  },
  accepted: `${DEFAULT_USERNAME_PROVIDER_TYPE} without options`,
  parse: () => ({}),
  render: () => ({}),
};

/** Always there, whatever the modules, in the order a refusal names them. */
export const BUILT_IN_RELEASE_POLICY_CODECS: readonly ServicePolicyCodec[] = [returnAllAttributesCodec, returnAllowedAttributesCodec, denyAllAttributesCodec];
export const BUILT_IN_USERNAME_PROVIDER_CODECS: readonly ServicePolicyCodec[] = [defaultUsernameProviderCodec];
