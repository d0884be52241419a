import type { AttributeMap } from '../domain/authentication/principal.js';
import type { ServicePolicy } from '../domain/registry/registered-service.js';
import type { AttributeReleasePolicy, UsernameProvider } from '../ports/service-policies.js';
import { valuesIgnoringCase } from './attribute-names.js';
import { chainingAttributes } from './chaining-policy.js';
import { finishRelease, type ReleaseSettings } from './release-settings.js';
import { anonymousUsername, principalAttributeUsername } from './username-providers.js';

const CAS = 'org.apereo.cas.services';

export const RETURN_ALL_ATTRIBUTES = `${CAS}.ReturnAllAttributeReleasePolicy`;
export const RETURN_ALLOWED_ATTRIBUTES = `${CAS}.ReturnAllowedAttributeReleasePolicy`;
export const DENY_ALL_ATTRIBUTES = `${CAS}.DenyAllAttributeReleasePolicy`;
export const RETURN_MAPPED_ATTRIBUTES = `${CAS}.ReturnMappedAttributeReleasePolicy`;
export const DEFAULT_USERNAME_PROVIDER_TYPE = `${CAS}.DefaultRegisteredServiceUsernameProvider`;

/** The user name of a service without a `usernameAttributeProvider`: the principal id. */
export const DEFAULT_USERNAME_PROVIDER: ServicePolicy = { type: DEFAULT_USERNAME_PROVIDER_TYPE };

export interface ReturnAllAttributes extends ReleaseSettings {
  /** Names of the principal's attributes not released; kept only when not empty. */
  readonly excludedAttributes?: readonly string[];
}

export interface ReturnAllowedAttributes extends ReleaseSettings {
  /** The principal's attributes released, by name (case ignored, released under the name written here); the others are not. */
  readonly allowedAttributes: readonly string[];
}

/**
 * What a service without an `attributeReleasePolicy` releases, as Apereo CAS's registered services
 * default it: a ReturnAllowedAttributeReleasePolicy allowing no attribute, so no principal attribute,
 * and the authentication's attributes (`authorizedToReleaseAuthenticationAttributes` unset is true).
 */
export const DEFAULT_ATTRIBUTE_RELEASE: ReturnAllowedAttributes = { type: RETURN_ALLOWED_ATTRIBUTES, allowedAttributes: [] };

export interface ReturnMappedAttributes extends ReleaseSettings {
  /** A principal attribute's name (case ignored) → the names it is released under (one or several, as written); the others are not released. */
  readonly allowedAttributes: Readonly<Record<string, readonly string[]>>;
}

/** Every attribute of the principal but the excluded ones, and the authentication's. */
export const returnAllAttributes: AttributeReleasePolicy<ReturnAllAttributes> = {
  type: RETURN_ALL_ATTRIBUTES,
  release(policy, { principal, authentication }) {
    const excluded = new Set(policy.excludedAttributes ?? []);
    const released = Object.fromEntries(Object.entries(principal.attributes).filter(([name]) => !excluded.has(name)));
    return Promise.resolve(finishRelease(policy, released, authentication));
  },
};

/**
 * The principal's attributes named in `allowedAttributes`, and the authentication's. As in CAS a name
 * finds the principal's attribute whatever its case and releases it under the name as the policy writes
 * it; names written twice in different cases release the attribute once, under the first.
 */
export const returnAllowedAttributes: AttributeReleasePolicy<ReturnAllowedAttributes> = {
  type: RETURN_ALLOWED_ATTRIBUTES,
  release(policy, { principal, authentication }) {
    const released: Record<string, readonly string[]> = {};
    const taken = new Set<string>();
    for (const name of policy.allowedAttributes) {
      const values = valuesIgnoringCase(principal.attributes, name);
      if (!values || taken.has(name.toLowerCase())) continue;
      taken.add(name.toLowerCase());
      released[name] = values;
    }
    return Promise.resolve(finishRelease(policy, released, authentication));
  },
};

/**
 * The principal's attributes named in `allowedAttributes` (found whatever their case, as in CAS), each
 * under the names it maps to, as written, and the authentication's.
 */
export const returnMappedAttributes: AttributeReleasePolicy<ReturnMappedAttributes> = {
  type: RETURN_MAPPED_ATTRIBUTES,
  release(policy, { principal, authentication }) {
    const released: Record<string, readonly string[]> = {};
    for (const [name, releasedAs] of Object.entries(policy.allowedAttributes)) {
      const values = valuesIgnoringCase(principal.attributes, name);
      if (values) for (const as of releasedAs) released[as] = values;
    }
    return Promise.resolve(finishRelease(policy, released, authentication));
  },
};

/** Nothing: neither the principal's attributes nor the authentication's. Never a default: only a service that names it. */
export const denyAllAttributes: AttributeReleasePolicy = {
  type: DENY_ALL_ATTRIBUTES,
  release: (): Promise<AttributeMap> => Promise.resolve({}),
};

/** The principal id, as it is. */
export const defaultUsernameProvider: UsernameProvider = {
  type: DEFAULT_USERNAME_PROVIDER_TYPE,
  username: (_provider, { principal }) => Promise.resolve(principal.id),
};

/** Always there, whatever the modules: what today's service definitions say. */
export const BUILT_IN_RELEASE_POLICIES: readonly AttributeReleasePolicy[] = [
  returnAllAttributes,
  returnAllowedAttributes,
  returnMappedAttributes,
  denyAllAttributes,
  chainingAttributes,
];
export const BUILT_IN_USERNAME_PROVIDERS: readonly UsernameProvider[] = [defaultUsernameProvider, principalAttributeUsername, anonymousUsername];
