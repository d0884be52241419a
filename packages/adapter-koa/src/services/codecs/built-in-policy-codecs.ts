import {
  DEFAULT_USERNAME_PROVIDER_TYPE,
  DENY_ALL_ATTRIBUTES,
  RETURN_ALL_ATTRIBUTES,
  RETURN_ALLOWED_ATTRIBUTES,
  RETURN_MAPPED_ATTRIBUTES,
  type ReturnAllAttributes,
  type ReturnAllowedAttributes,
  type ReturnMappedAttributes,
} from '@tessera/core';
import { is, isRecord, RELEASE_UNSUPPORTED } from './cas-service-keys.js';
import { javaList, stringList } from './java-collections.js';
import type { ServicePolicyCodec } from './policy-codec.js';
import { anonymousUsernameCodec, principalAttributeUsernameCodec } from './username-provider-codecs.js';
import { parseReleaseSettings, RELEASE_SETTINGS_KEYS, releaseSettingsKeyProblems, renderReleaseSettings } from './release-settings-codec.js';

const CLASS_ONLY = ['@class'];
/** The keys of ReturnAllowedAttributeReleasePolicy that another release policy class does not read. */
const ALLOWED_ONLY = { allowedAttributes: 'ReturnAllowedAttributeReleasePolicy' };

/** `ReturnAllAttributeReleasePolicy`: `excludedAttributes`, a list of names (none when absent), and the base class's settings. */
export const returnAllAttributesCodec: ServicePolicyCodec<ReturnAllAttributes> = {
  type: RETURN_ALL_ATTRIBUTES,
  keys: { read: [...CLASS_ONLY, 'excludedAttributes', ...RELEASE_SETTINGS_KEYS], elsewhere: ALLOWED_ONLY, unsupported: RELEASE_UNSUPPORTED },
  keyProblemsInside: releaseSettingsKeyProblems,
  parse(json, { fail }) {
    const excludedAttributes = stringList(json['excludedAttributes'] ?? []);
    if (!excludedAttributes) throw fail('excludedAttributes', 'must be a list of attribute names');
    return { ...(excludedAttributes.length > 0 && { excludedAttributes }), ...parseReleaseSettings(json, fail) };
  },
  render: (policy) => ({ ...(policy.excludedAttributes && { excludedAttributes: javaList(policy.excludedAttributes) }), ...renderReleaseSettings(policy) }),
};

/** `ReturnAllowedAttributeReleasePolicy`: `allowedAttributes`, a list of names (none when absent), and the base class's settings. */
export const returnAllowedAttributesCodec: ServicePolicyCodec<ReturnAllowedAttributes> = {
  type: RETURN_ALLOWED_ATTRIBUTES,
  keys: { read: [...CLASS_ONLY, 'allowedAttributes', ...RELEASE_SETTINGS_KEYS], unsupported: RELEASE_UNSUPPORTED },
  keyProblemsInside: releaseSettingsKeyProblems,
  parse(json, { fail }) {
    const allowedAttributes = stringList(json['allowedAttributes'] ?? []);
    if (!allowedAttributes) throw fail('allowedAttributes', 'must be a list of attribute names');
    return { allowedAttributes, ...parseReleaseSettings(json, fail) };
  },
  render: (policy) => ({ allowedAttributes: javaList(policy.allowedAttributes), ...renderReleaseSettings(policy) }),
};

const SCRIPTED_VALUE = /^\s*groovy\s*\{|^\s*(file|classpath):|\.groovy\s*$/i;

/**
 * `ReturnMappedAttributeReleasePolicy`: `allowedAttributes`, a map of a principal attribute to the name
 * (or list of names) it is released under, and the base class's settings. CAS also takes a Groovy script
 * as a value, which cannot run here: refused, saying so.
 */
export const returnMappedAttributesCodec: ServicePolicyCodec<ReturnMappedAttributes> = {
  type: RETURN_MAPPED_ATTRIBUTES,
  keys: { read: [...CLASS_ONLY, 'allowedAttributes', ...RELEASE_SETTINGS_KEYS], unsupported: RELEASE_UNSUPPORTED },
  keyProblemsInside: releaseSettingsKeyProblems,
  parse(json, { fail }) {
    const map = json['allowedAttributes'] ?? {};
    if (!isRecord(map)) throw fail('allowedAttributes', 'must map attribute names to the names they are released under');
    const allowedAttributes: Record<string, readonly string[]> = {};
    for (const [name, value] of Object.entries(map)) {
      if (name === '@class') continue;
      const names = typeof value === 'string' ? [value] : stringList(value);
      if (!names || names.length === 0) throw fail(`allowedAttributes.${name}`, 'must be a name, or a list of names, to release the attribute under');
      if (names.some((each) => SCRIPTED_VALUE.test(each))) throw fail(`allowedAttributes.${name}`, 'a Groovy script cannot run in tessera; write the name to release the attribute under');
      allowedAttributes[name] = names;
    }
    return { allowedAttributes, ...parseReleaseSettings(json, fail) };
  },
  render: (policy) => ({
    allowedAttributes: {
      '@class': 'java.util.TreeMap',
      ...Object.fromEntries(Object.entries(policy.allowedAttributes).map(([name, names]) => [name, names.length === 1 ? names[0] : javaList(names)])),
    },
    ...renderReleaseSettings(policy),
  }),
};

/** `DenyAllAttributeReleasePolicy`: its class, and the base class's settings (kept as written; nothing is released to filter). */
export const denyAllAttributesCodec: ServicePolicyCodec = {
  type: DENY_ALL_ATTRIBUTES,
  keys: { read: [...CLASS_ONLY, ...RELEASE_SETTINGS_KEYS], elsewhere: ALLOWED_ONLY, unsupported: RELEASE_UNSUPPORTED },
  keyProblemsInside: releaseSettingsKeyProblems,
  parse: (json, { fail }) => parseReleaseSettings(json, fail),
  render: (policy) => renderReleaseSettings(policy),
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
export const BUILT_IN_RELEASE_POLICY_CODECS: readonly ServicePolicyCodec[] = [returnAllAttributesCodec, returnAllowedAttributesCodec, returnMappedAttributesCodec, denyAllAttributesCodec];
export const BUILT_IN_USERNAME_PROVIDER_CODECS: readonly ServicePolicyCodec[] = [defaultUsernameProviderCodec, principalAttributeUsernameCodec, anonymousUsernameCodec];
