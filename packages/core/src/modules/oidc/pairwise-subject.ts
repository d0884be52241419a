import type { ServicePolicy } from '../../domain/registry/registered-service.js';
import type { UsernameProvider } from '../../ports/service-policies.js';
import { persistentId } from '../../service-policies/username-providers.js';
import { OIDC_CLIENT } from './client-definition.js';

export const PAIRWISE_USERNAME_PROVIDER = 'org.apereo.cas.services.PairwiseOidcRegisteredServiceUsernameAttributeProvider';
export const OIDC_PAIRWISE_ID_GENERATOR = 'org.apereo.cas.authentication.principal.OidcPairwisePersistentIdGenerator';

export interface PairwiseUsername extends ServicePolicy {
  /** Mixed into every subject: without it anyone could compute a user's subject at a sector. */
  readonly salt: string;
}

/**
 * Apereo's PairwiseOidcRegisteredServiceUsernameAttributeProvider (OpenID Connect Core §8.1): a client
 * whose definition asks for pairwise subjects (`subjectType: pairwise`) knows each user by an id of its
 * sector alone, the host of its `sectorIdentifierUri` or else of its redirect URIs, made as CAS's
 * OidcPairwisePersistentIdGenerator makes it (base64 of SHA-1 over the sector, `!`, the principal id,
 * `!` and the salt): the same for every client of the sector, unlike the user's at any other, and
 * not to be reversed. Any other service sees the principal id.
 */
export const pairwiseUsername: UsernameProvider<PairwiseUsername> = {
  type: PAIRWISE_USERNAME_PROVIDER,
  username(provider, { principal, service }) {
    const client = OIDC_CLIENT.of(service);
    const sector = client?.subjectType === 'pairwise' ? sectorOf(client.sectorIdentifierUri ?? service.serviceId) : undefined;
    return Promise.resolve(sector === undefined ? principal.id : persistentId(principal.id, sector, provider.salt));
  },
};

/** The host of a URL, or of the URL a serviceId pattern begins with (`^https://app\.example\.org/.*`). */
export function sectorOf(urlOrPattern: string): string | undefined {
  const match = /^\^?https?:\/\/((?:[A-Za-z0-9-]|\\\.|\.)+)/.exec(urlOrPattern);
  const host = match?.[1]?.replaceAll('\\.', '.').toLowerCase();
  return host === undefined || host === '' ? undefined : host;
}
