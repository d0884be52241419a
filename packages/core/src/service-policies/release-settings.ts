import type { AttributeMap } from '../domain/authentication/principal.js';
import type { ServicePolicy } from '../domain/registry/registered-service.js';
import { filterAttributes, type AttributeFilter } from './attribute-filters.js';
import type { ConsentPolicy } from './consent-policy.js';

export const CACHING_PRINCIPAL_ATTRIBUTES_REPOSITORY = 'org.apereo.cas.authentication.principal.cache.CachingPrincipalAttributesRepository';

/**
 * CAS's CachingPrincipalAttributesRepository, its options as written: in CAS it fetches the principal's
 * attributes again from the attribute repositories once its cache expires. tessera has no attribute
 * repositories: a service receives the attributes its user's authentication gave, for the whole
 * session, so it changes nothing here; kept so the definition round-trips, and warned about
 * (releasePolicyWarnings).
 */
export interface CachingPrincipalAttributesRepository {
  readonly type: typeof CACHING_PRINCIPAL_ATTRIBUTES_REPOSITORY;
  readonly expiration?: number;
  readonly timeUnit?: string;
  readonly mergingStrategy?: string;
  readonly attributeRepositoryIds?: readonly string[];
}

/**
 * What every Apereo release policy class has besides its own settings (its base class's): kept only
 * when not their default.
 */
export interface ReleaseSettings extends ServicePolicy {
  /** false: the authentication's attributes (`isFromNewLogin`, `authenticationDate`) are not released. */
  readonly authorizedToReleaseAuthenticationAttributes?: false;
  /** Applied to the principal's attributes the policy releases. */
  readonly attributeFilter?: AttributeFilter;
  /** Kept only when it is a caching one: the default repository is what tessera does. */
  readonly principalAttributesRepository?: CachingPrincipalAttributesRepository;
  /** Whether users are asked to agree before the release, read by the consent module; absent: as the server's default. */
  readonly consentPolicy?: ConsentPolicy;
}

/** A policy's release of principal attributes, finished as CAS's base class does: filtered, then with the authentication's. */
export function finishRelease(policy: ReleaseSettings, released: AttributeMap, authentication: AttributeMap): AttributeMap {
  const filtered = policy.attributeFilter ? filterAttributes(policy.attributeFilter, released) : released;
  return policy.authorizedToReleaseAuthenticationAttributes === false ? filtered : { ...filtered, ...authentication };
}

/**
 * What is said, never refused, about a release policy and those it holds: a caching principal
 * attributes repository, which refreshes nothing here.
 */
export function releasePolicyWarnings(policy: ServicePolicy): string[] {
  return holdsCachingRepository(policy)
    ? [
        'its principalAttributesRepository is a CachingPrincipalAttributesRepository, which in CAS fetches attributes again from attribute repositories; tessera has none: the service receives the attributes its user’s authentication gave, for the whole session',
      ]
    : [];
}

/** Whether the policy, or one it holds at any depth, has a caching repository: policies are plain data, so any nesting is walked. */
function holdsCachingRepository(data: unknown): boolean {
  if (Array.isArray(data)) return data.some(holdsCachingRepository);
  if (typeof data !== 'object' || data === null) return false;
  if ((data as { type?: unknown }).type === CACHING_PRINCIPAL_ATTRIBUTES_REPOSITORY) return true;
  return Object.values(data).some(holdsCachingRepository);
}
