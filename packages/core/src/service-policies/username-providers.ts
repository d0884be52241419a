import { createHash } from 'node:crypto';
import type { Principal } from '../domain/authentication/principal.js';
import type { ServicePolicy } from '../domain/registry/registered-service.js';
import type { UsernameProvider } from '../ports/service-policies.js';
import { valuesIgnoringCase } from './attribute-names.js';

const CAS = 'org.apereo.cas.services';
export const PRINCIPAL_ATTRIBUTE_USERNAME_PROVIDER = `${CAS}.PrincipalAttributeRegisteredServiceUsernameProvider`;
export const ANONYMOUS_USERNAME_PROVIDER = `${CAS}.AnonymousRegisteredServiceUsernameAttributeProvider`;
export const SHIBBOLETH_PERSISTENT_ID_GENERATOR = 'org.apereo.cas.authentication.principal.ShibbolethCompatiblePersistentIdGenerator';

export const CANONICALIZATION_MODES = ['NONE', 'UPPER', 'LOWER'] as const;
export type CanonicalizationMode = (typeof CANONICALIZATION_MODES)[number];

export interface PrincipalAttributeUsername extends ServicePolicy {
  /** The principal attribute whose first value is the user name; without it, the principal id. */
  readonly usernameAttribute: string;
  readonly canonicalizationMode: CanonicalizationMode;
  /** CAS's `removePattern`, kept only when given: every match of this regular expression is taken out of the name. */
  readonly removePattern?: string;
  /** CAS's `scope`, kept only when given: the name becomes `name@scope`. */
  readonly scope?: string;
}

export interface AnonymousUsername extends ServicePolicy {
  /** Mixed into every id: the same user gets another id at another server with another salt. */
  readonly salt: string;
  /** A principal attribute whose first value stands for the user instead of the principal id. */
  readonly attribute?: string;
}

/**
 * The first value of `usernameAttribute`, its name's case ignored as CAS finds it (the principal id when
 * the principal has none); then, as CAS's base provider does, every match of `removePattern` taken out,
 * `@scope` added, and the result trimmed in the case `canonicalizationMode` says.
 */
export const principalAttributeUsername: UsernameProvider<PrincipalAttributeUsername> = {
  type: PRINCIPAL_ATTRIBUTE_USERNAME_PROVIDER,
  username(provider, { principal }) {
    const name = valuesIgnoringCase(principal.attributes, provider.usernameAttribute)?.[0] ?? principal.id;
    const removed = provider.removePattern === undefined ? name : name.replace(new RegExp(provider.removePattern, 'gs'), '');
    const scoped = provider.scope === undefined ? removed : `${removed}@${provider.scope}`;
    return Promise.resolve(canonical(scoped.trim(), provider.canonicalizationMode));
  },
};

/**
 * An opaque id, the same for a user at a service URL every time and unlike the user's at any other, as
 * CAS's ShibbolethCompatiblePersistentIdGenerator makes it: base64 of SHA-1 over the service URL, `!`,
 * the user (the principal id, or the first value of `attribute`), `!` and the salt.
 */
export const anonymousUsername: UsernameProvider<AnonymousUsername> = {
  type: ANONYMOUS_USERNAME_PROVIDER,
  username(provider, { principal, serviceUrl }) {
    return Promise.resolve(persistentId(anonymousSubject(provider, principal), serviceUrl, provider.salt));
  },
};

function anonymousSubject(provider: AnonymousUsername, principal: Principal): string {
  return (provider.attribute === undefined ? undefined : principal.attributes[provider.attribute]?.[0]) ?? principal.id;
}

export function persistentId(user: string, serviceUrl: string, salt: string): string {
  return createHash('sha1').update(serviceUrl, 'utf8').update('!').update(user, 'utf8').update('!').update(salt, 'utf8').digest('base64');
}

function canonical(name: string, mode: CanonicalizationMode): string {
  if (mode === 'UPPER') return name.toUpperCase();
  if (mode === 'LOWER') return name.toLowerCase();
  return name;
}
