import type { AttributeMap, Principal } from '../domain/authentication/principal.js';
import type { RegisteredService, ServicePolicy } from '../domain/registry/registered-service.js';

/** Whom a service is told about, and which service asks. */
export interface UsernameRequest {
  readonly principal: Principal;
  /** The service's definition, as validation found it. */
  readonly service: RegisteredService;
  /** The service URL the ticket was issued for. */
  readonly serviceUrl: string;
}

export interface ReleaseRequest extends UsernameRequest {
  /**
   * What the authentication adds where it is released (a validation answer's `isFromNewLogin` and
   * `authenticationDate`); empty where nothing of it is (the claims of a JWT service ticket).
   */
  readonly authentication: AttributeMap;
  /** Where the release is for an OAuth 2.0 or OpenID Connect grant (claims): what was granted. Absent elsewhere. */
  readonly grant?: ReleaseGrant;
  /** What the relying party's own registration data declares of it (its categories); absent where its protocol has none. */
  readonly declared?: DeclaredAttributes;
}

/**
 * Name → values the relying party declares of itself in data the server trusts (a SAML SP's metadata
 * entity attributes, as `http://macedir.org/entity-category`): policies releasing by category read them.
 */
export type DeclaredAttributes = Readonly<Record<string, readonly string[]>>;

/** An OAuth 2.0 / OpenID Connect grant a release is for. */
export interface ReleaseGrant {
  /** The scopes granted: a policy releasing by scope releases only for these. */
  readonly scopes: readonly string[];
  /** The server's claim → attribute map (Apereo's `claims-map`): the attribute a claim takes its values from, unless a policy maps it itself. */
  readonly claimsMap: Readonly<Record<string, string>>;
}

/**
 * Resolves a policy held as data by its class, for the policies that hold others (a chain, a filter's
 * inner policy): `ServicePolicies` is the one implementation. Throws UnknownServicePolicyError for a
 * class no registration has.
 */
export interface PolicyResolver {
  release(policy: ServicePolicy, request: ReleaseRequest): Promise<AttributeMap>;
  username(provider: ServicePolicy, request: UsernameRequest): Promise<string>;
}

/**
 * The behaviour of one Apereo CAS attribute release policy class (`type`, fully qualified): given the
 * principal, the authentication's attributes and the service, what the service receives. `policy` is
 * the service's data of that class, as the class's codec part parsed it. A release is a function of
 * `policy` and `request` alone (no clock, no lookup elsewhere): its answer for one principal, service
 * and grant is reused (an OpenID Connect client's claims, asked at every userinfo request).
 */
export interface AttributeReleasePolicy<P extends ServicePolicy = ServicePolicy> {
  readonly type: string;
  release(policy: P, request: ReleaseRequest, policies: PolicyResolver): Promise<AttributeMap>;
}

/**
 * The behaviour of one Apereo CAS username provider class (`type`, fully qualified): the user name a
 * service sees (the CAS validation answers' user, SAML 1.1's NameIdentifier, a JWT service ticket's `sub`).
 */
export interface UsernameProvider<P extends ServicePolicy = ServicePolicy> {
  readonly type: string;
  username(provider: P, request: UsernameRequest, policies: PolicyResolver): Promise<string>;
}
