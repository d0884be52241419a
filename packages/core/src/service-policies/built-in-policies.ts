import type { AttributeMap } from '../domain/authentication/principal.js';
import type { ServicePolicy } from '../domain/registry/registered-service.js';
import type { AttributeReleasePolicy, UsernameProvider } from '../ports/service-policies.js';

const CAS = 'org.apereo.cas.services';

export const RETURN_ALL_ATTRIBUTES = `${CAS}.ReturnAllAttributeReleasePolicy`;
export const RETURN_ALLOWED_ATTRIBUTES = `${CAS}.ReturnAllowedAttributeReleasePolicy`;
export const DENY_ALL_ATTRIBUTES = `${CAS}.DenyAllAttributeReleasePolicy`;
export const DEFAULT_USERNAME_PROVIDER_TYPE = `${CAS}.DefaultRegisteredServiceUsernameProvider`;

/** What a service without an `attributeReleasePolicy` releases: nothing. */
export const NO_ATTRIBUTES_RELEASED: ServicePolicy = { type: DENY_ALL_ATTRIBUTES };
/** The user name of a service without a `usernameAttributeProvider`: the principal id. */
export const DEFAULT_USERNAME_PROVIDER: ServicePolicy = { type: DEFAULT_USERNAME_PROVIDER_TYPE };

export interface ReturnAllowedAttributes extends ServicePolicy {
  /** The principal's attributes released, by name; the others are not. */
  readonly allowedAttributes: readonly string[];
}

/** Every attribute of the principal, and the authentication's. */
export const returnAllAttributes: AttributeReleasePolicy = {
  type: RETURN_ALL_ATTRIBUTES,
  release: (_policy, { principal, authentication }) => Promise.resolve({ ...principal.attributes, ...authentication }),
};

/** The principal's attributes named in `allowedAttributes`, and the authentication's. */
export const returnAllowedAttributes: AttributeReleasePolicy<ReturnAllowedAttributes> = {
  type: RETURN_ALLOWED_ATTRIBUTES,
  release(policy, { principal, authentication }) {
    const released: Record<string, readonly string[]> = {};
    for (const name of policy.allowedAttributes) {
      const values = principal.attributes[name];
      if (values) released[name] = values;
    }
    return Promise.resolve({ ...released, ...authentication });
  },
};

/** Nothing: neither the principal's attributes nor the authentication's. */
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
export const BUILT_IN_RELEASE_POLICIES: readonly AttributeReleasePolicy[] = [returnAllAttributes, returnAllowedAttributes, denyAllAttributes];
export const BUILT_IN_USERNAME_PROVIDERS: readonly UsernameProvider[] = [defaultUsernameProvider];
