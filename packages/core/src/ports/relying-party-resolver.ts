import type { RegisteredService } from '../domain/registry/registered-service.js';

/**
 * A relying party that a protocol module reaches through a URL of its own, which no serviceId names:
 * the oidc module's login callback (`<issuer>/interaction/<uid>/login`) stands for the client whose
 * authorization it finishes. /login, its tickets and their validation then answer for that client's
 * registered service, as for a CAS service matched by its URL.
 */
export interface RelyingPartyOfUrl {
  /** The relying party's registered service, whatever its access strategy says (the use case decides). */
  readonly service: RegisteredService;
  /** The address a person knows the relying party by (an OIDC client's redirect URI), shown on the login pages. */
  readonly shownUrl: string;
  /**
   * The URL the service's policies know the relying party by, which its release (anonymous and pairwise
   * ids, attributes by service) is computed over wherever it is asked: an SAML SP's entity id, an OIDC
   * client's serviceId; never the module's own URL, which changes with every login.
   */
  readonly policyUrl: string;
  /**
   * Where a browser goes that the service refuses, when its definition names no `unauthorizedRedirectUrl`:
   * the protocol's own way of telling the relying party no (an OIDC client gets `access_denied`).
   */
  readonly refusalUrl?: string;
}

/**
 * A protocol module's URLs that stand for a relying party (RelyingPartyOfUrl). Asked before the
 * registry's serviceIds; each is asked in module order, the first that knows the URL decides.
 */
export interface RelyingPartyResolver {
  /**
   * The relying party the URL stands for; `null` when the URL is one of this module's but stands for
   * none now (refused as an unregistered service); `undefined` when the URL is none of this module's.
   */
  resolve(url: string): Promise<RelyingPartyOfUrl | null | undefined>;
}
