import type { Authentication } from '../domain/authentication/authentication.js';
import type { AttributeMap, Principal } from '../domain/authentication/principal.js';
import { AuthenticationFailedError, ServiceNotAuthorizedError, type TesseraError } from '../domain/errors.js';
import type { RequestOrigin, ServiceAccessRefusal } from '../domain/events.js';
import { strategyAllows, type AccessContext } from '../domain/registry/access-rules.js';
import { failsOpen, type MfaFailureMode } from '../domain/registry/multifactor-policy.js';
import { hasExpired, type RegisteredService } from '../domain/registry/registered-service.js';
import { firstMatchingService, principalMeetsRequirements, selectService } from '../domain/registry/service-matcher.js';
import { CAS_SERVICES_ONLY, type ServiceTypes } from '../domain/registry/service-types.js';
import { participatesInSingleSignOn } from '../domain/registry/single-sign-on-participation.js';
import { sessionMaxTimeToLiveSeconds } from '../domain/registry/ticket-expiration.js';
import type { TicketLifetimes } from '../domain/tickets/lifetimes.js';
import type { TicketGrantingTicket } from '../domain/tickets/ticket.js';
import type { AdmissionRule } from '../ports/admission-rule.js';
import type { Clock } from '../ports/clock.js';
import type { RelyingPartyResolver } from '../ports/relying-party-resolver.js';
import type { ServiceRegistry } from '../ports/service-registry.js';
import type { ServicePolicies } from '../service-policies/service-policies.js';
import type { DeclaredAttributes, ReleaseGrant } from '../ports/service-policies.js';
import type { SecondFactorRequirement } from './second-factor-requirement.js';

const SERVICE_ACCESS_DENIED = 'Service access denied due to missing privileges.';
export const SSO_NOT_ALLOWED = 'The service does not take part in single sign-on; request it with renew=true and credentials.';

/** Why a login lacking the service's second factor gets no ticket: the factors it may give, as their providers name them ("a one-time code"). */
export function secondFactorRequired(factors: readonly string[]): string {
  return `The service asks for a second factor${factorsShown(factors)} that this login did not give.`;
}

/** Why a user who has none of the service's second factors gets no ticket (failure mode CLOSED). */
export function secondFactorUnavailable(factors: readonly string[]): string {
  return `The service asks for a second factor${factorsShown(factors)}, and this user has none set up.`;
}

function factorsShown(factors: readonly string[]): string {
  return factors.length === 0 ? '' : ` (${[...new Set(factors)].join(' or ')})`;
}

/**
 * How a use case says no: it reports the refusal with its reason (the audit trail needs who was
 * refused what, which only the use case knows), then throws `error`, which the caller answers with.
 */
export type Refuse<Reason extends string> = (reason: Reason, error: TesseraError) => never;

/** A relying party as a request found it: its registered service, and how the pages name it. */
export interface RelyingParty {
  readonly service: RegisteredService;
  /** The URL the request asked for (a CAS service URL, or a protocol module's own URL standing for its client). */
  readonly url: string;
  /** The address a person knows it by: the service URL, or an OIDC client's redirect URI. */
  readonly shownUrl: string;
  /** Where a refused browser goes when the definition names no `unauthorizedRedirectUrl` (a protocol module's own refusal). */
  readonly refusalUrl?: string;
  /** Reached through a protocol module's own URL (RelyingPartyResolver): that protocol answers it, never a CAS validation. */
  readonly throughModule: boolean;
}

/** Why a session may not reach a relying party now, as the ticket refusals name it. */
export type AdmissionRefusal = 'SERVICE_NOT_AUTHORIZED' | 'PRINCIPAL_NOT_ALLOWED' | 'SSO_NOT_ALLOWED' | 'SECOND_FACTOR_REQUIRED' | 'SECOND_FACTOR_UNAVAILABLE';

/**
 * The answer to "may this login reach this relying party now, and what must it prove first": admitted
 * (`factorSkipped` when the service's second factor was asked of a user who has none and its failure
 * mode let the user through), or refused, the reason saying what is missing.
 */
export type Admission =
  | { readonly admitted: true; readonly factorSkipped?: MfaFailureMode }
  | { readonly admitted: false; readonly reason: AdmissionRefusal; readonly error: TesseraError };

export interface AdmissionRequest {
  readonly service: RegisteredService;
  /** What the login proved: the session's authentication, or the login this request made. */
  readonly authentication: Authentication;
  /** The request made a login of its own (renew with credentials, the login form): no single sign-on. */
  readonly renewed: boolean;
  /** The request asking: the service must be usable now by its client (expiry, time window, request rules). */
  readonly origin?: RequestOrigin;
}

export interface RelyingPartyReleaseRequest {
  readonly service: RegisteredService;
  /**
   * The URL the service was asked for. Anonymous ids and mapped names are computed over the URL its
   * policies know it by: this one, or for a protocol module's own URL the party's `policyUrl`.
   */
  readonly url: string;
  readonly principal: Principal;
  /**
   * A ticket being validated: its `isFromNewLogin`, `authenticationDate` and the factor its login proved
   * (`authnContextClass`) are released beside the principal's attributes, as CAS's validation answers them.
   */
  readonly validation?: { readonly fromNewLogin: boolean; readonly authenticatedAt: number; readonly authentication: Authentication };
  /** An OAuth 2.0 or OpenID Connect grant the release is for: its scopes decide what the policies releasing by scope release. */
  readonly grant?: ReleaseGrant;
  /** What the relying party's registration data declares of it (its categories), for the policies releasing by category. */
  readonly declared?: DeclaredAttributes;
}

/** What a part outside the use cases asks of the path: who the user is to a relying party, what it receives. */
export type ReleaseToRelyingParty = (request: RelyingPartyReleaseRequest) => Promise<Released>;

/** Who the user is to a relying party and what it receives. */
export interface Released {
  readonly username: string;
  readonly attributes: AttributeMap;
}

/**
 * The one relying-party path (docs/architecture.md §5): whatever the protocol (a CAS ticket, an OpenID
 * Connect or OAuth authorization), which registered service a request reaches, whether a login session
 * may reach it now and what it must prove first, who the user is to it and what it receives are
 * answered here, over the service's definition. Protocols ask and render the answers.
 */
export class RelyingPartyAccess {
  constructor(
    private readonly registry: ServiceRegistry,
    private readonly clock: Clock,
    private readonly lifetimes: TicketLifetimes,
    private readonly policies: ServicePolicies,
    private readonly secondFactor: SecondFactorRequirement,
    private readonly resolvers: readonly RelyingPartyResolver[] = [],
    /** Which services CAS service URLs find: not a client of another protocol, nor a service of a module that is off. */
    private readonly types: ServiceTypes = CAS_SERVICES_ONLY,
    /** Modules' rules over which logins may reach a service (AdmissionRule), asked on single sign-on, admission and validation. */
    private readonly rules: readonly AdmissionRule[] = [],
  ) {}

  /**
   * The relying party of a URL: a protocol module's own URL stands for its client (RelyingPartyResolver);
   * any other URL for the first CAS definition matching it, in evaluation order. Either way, one that
   * has expired or whose access strategy refuses to be used now by the request's client (`origin`;
   * without one, no client matches the rules of an HTTP request strategy) is none.
   */
  async locate(url: string, origin?: RequestOrigin): Promise<RelyingParty | undefined> {
    const context = this.context(origin);
    const resolved = await this.resolve(url);
    if (resolved !== undefined) {
      if (resolved === null || !this.usable(resolved.service, context)) return undefined;
      return { service: resolved.service, url, shownUrl: resolved.shownUrl, throughModule: true, ...(resolved.refusalUrl !== undefined && { refusalUrl: resolved.refusalUrl }) };
    }
    const service = selectService(await this.registry.list(), url, this.types, context);
    return service === undefined ? undefined : { service, url, shownUrl: url, throughModule: false };
  }

  /** The registered service of `locate`. */
  async find(url: string, origin?: RequestOrigin): Promise<RegisteredService | undefined> {
    return (await this.locate(url, origin))?.service;
  }

  /**
   * As find, but an unregistered or refused service is refused (403). The error carries where a refused
   * browser goes: the `unauthorizedRedirectUrl` of the definition that refused it, else the protocol's own refusal.
   */
  async require(url: string, refuse: Refuse<ServiceAccessRefusal>, origin?: RequestOrigin): Promise<RegisteredService> {
    const context = this.context(origin);
    const resolved = await this.resolve(url);
    if (resolved !== undefined) {
      if (resolved !== null && this.usable(resolved.service, context)) return resolved.service;
      return refuse('SERVICE_NOT_AUTHORIZED', new ServiceNotAuthorizedError(resolved?.service.accessStrategy.unauthorizedRedirectUrl ?? resolved?.refusalUrl));
    }
    const services = await this.registry.list();
    const found = selectService(services, url, this.types, context);
    if (found) return found;
    // CAS takes the first definition that matches, refused or not, and redirects to its URL.
    const redirect = firstMatchingService(services, url, this.types, context.now)?.accessStrategy.unauthorizedRedirectUrl;
    return refuse('SERVICE_NOT_AUTHORIZED', new ServiceNotAuthorizedError(redirect));
  }

  /** Where a browser goes that `url`'s relying party refuses: its `unauthorizedRedirectUrl`, else its protocol's refusal; undefined for the refusal page. */
  async refusalRedirect(url: string, origin?: RequestOrigin): Promise<string | undefined> {
    const party = await this.locate(url, origin);
    return party?.service.accessStrategy.unauthorizedRedirectUrl ?? party?.refusalUrl;
  }

  /** The principal must hold the service's required attributes (401). */
  requirePrincipal(service: RegisteredService, principal: Principal, refuse: Refuse<ServiceAccessRefusal>): void {
    if (!principalMeetsRequirements(service, principal)) refuse('PRINCIPAL_NOT_ALLOWED', new AuthenticationFailedError([SERVICE_ACCESS_DENIED]));
  }

  /**
   * Whether the login session logs a browser in to the service without the form (single sign-on): the
   * service takes part in it (accessStrategy.ssoEnabled), its singleSignOnParticipationPolicy, if any,
   * says so, and without one a service with its own session lifetime takes a session only while it
   * is younger than that, as CAS decides; and every module's admission rule takes the session's login
   * (one a rule refuses shows the login page, as Apereo CAS's single sign-on participation strategies do).
   */
  reachesBySingleSignOn(service: RegisteredService, tgt: TicketGrantingTicket): boolean {
    if (!service.accessStrategy.ssoEnabled || !this.allowsLogin(service, tgt.authentication)) return false;
    const now = this.clock.now();
    const policy = service.singleSignOnParticipation;
    if (policy !== undefined) return participatesInSingleSignOn(policy, tgt, now, this.lifetimes);
    const ownLifetime = sessionMaxTimeToLiveSeconds(service.ticketGrantingTicketExpiration);
    return ownLifetime === undefined || now <= tgt.createdAt + ownLifetime * 1000;
  }

  /**
   * May this login reach the service now, and what must it prove first: the service must be usable now
   * by the request's client and take the way the login was proved (the modules' admission rules); without single sign-on it needs a login of the request's own; the
   * principal must meet its access rules; its
   * `multifactorPolicy` asks a second factor (one of the providers it names) the login must have
   * proved, unless the user has none of them and the policy's failure mode lets the user through.
   */
  async admit(request: AdmissionRequest): Promise<Admission> {
    const { service, authentication, renewed, origin } = request;
    if (!this.usable(service, this.context(origin))) return refused('SERVICE_NOT_AUTHORIZED', new ServiceNotAuthorizedError(service.accessStrategy.unauthorizedRedirectUrl));
    if (!this.allowsLogin(service, authentication)) return refused('SERVICE_NOT_AUTHORIZED', new ServiceNotAuthorizedError(service.accessStrategy.unauthorizedRedirectUrl));
    if (!renewed && !service.accessStrategy.ssoEnabled) return refused('SSO_NOT_ALLOWED', new AuthenticationFailedError([SSO_NOT_ALLOWED]));
    if (!principalMeetsRequirements(service, authentication.principal)) return refused('PRINCIPAL_NOT_ALLOWED', new AuthenticationFailedError([SERVICE_ACCESS_DENIED]));
    const policy = service.multifactorPolicy;
    if (policy === undefined || !this.secondFactor.lacks(service, authentication)) return { admitted: true };
    const choices = await this.secondFactor.choices(service, authentication);
    if (choices.length > 0) return refused('SECOND_FACTOR_REQUIRED', new AuthenticationFailedError([secondFactorRequired(choices.map((provider) => provider.description))]));
    const named = this.secondFactor.named(service).map((provider) => provider.description);
    if (!failsOpen(policy)) return refused('SECOND_FACTOR_UNAVAILABLE', new AuthenticationFailedError([secondFactorUnavailable(named)]));
    return { admitted: true, factorSkipped: policy.failureMode };
  }

  /** Whether every module's admission rule lets a login proved this way reach the service (a ticket's validation asks it again). */
  allowsLogin(service: RegisteredService, authentication: Authentication): boolean {
    return this.rules.every((rule) => rule.allows(service, authentication));
  }

  /**
   * Whether a relying party that let a login session in still does, for what it holds of it (an OAuth 2.0
   * or OpenID Connect client's tokens): its service usable now (not expired, enabled, within its time
   * window; its HTTP request rules were the browser's, met at the login) and, given the session's login,
   * its access rules met by the principal and every module's admission rule taking the way the login was
   * proved (a client whose delegation policy now refuses the login's upstream provider gets no more for
   * it). A client's own tokens, with no user, ask the service alone.
   */
  stillAdmits(service: RegisteredService, authentication?: Authentication): boolean {
    if (!this.usable(service, { now: this.clock.now() })) return false;
    return authentication === undefined || (principalMeetsRequirements(service, authentication.principal) && this.allowsLogin(service, authentication));
  }

  /**
   * Who the user is to the service (its username provider) and what it receives (its release policy):
   * the principal's attributes it lets through, and for a ticket being validated the authentication's
   * own (`isFromNewLogin`, `authenticationDate`, the factor proved as `authnContextClass`). A protocol
   * module's own URL is released for as the URL the party's policies know it by (an SP's entity id), so
   * the consent page shows what the party will receive; one standing for nothing now is refused.
   */
  readonly release: ReleaseToRelyingParty = async (request) => {
    const { service, url, principal, validation, grant, declared } = request;
    const asked = { principal, service, serviceUrl: await this.policyUrl(url) };
    const authenticationAttributes: AttributeMap =
      validation === undefined
        ? {}
        : {
            isFromNewLogin: [String(validation.fromNewLogin)],
            authenticationDate: [isoInstant(validation.authenticatedAt)],
            ...this.secondFactor.contextClass(validation.authentication),
          };
    const [username, attributes] = await Promise.all([this.policies.usernameFor(asked), this.policies.releasedAttributes({ ...asked, authentication: authenticationAttributes, ...(grant && { grant }), ...(declared && { declared }) })]);
    return { username, attributes };
  };

  /**
   * What the service receives of a grant, as `release` answers it, without working out who the user is
   * to it: an OpenID Connect client's claims (an ID token, userinfo), which name the user by `sub`.
   */
  releasedClaims(request: ClaimsRequest): Promise<AttributeMap> {
    const { service, url, principal, grant } = request;
    const key = `${url}\n${grant.scopes.join(' ')}`;
    const reused = this.claimReleases.get(principal)?.get(service)?.get(key);
    return reused !== undefined && reused.claimsMap === grant.claimsMap ? Promise.resolve(reused.claims) : this.releaseClaims(request, key);
  }

  private async releaseClaims({ service, url, principal, grant }: ClaimsRequest, key: string): Promise<AttributeMap> {
    const { policyUrl, lasting } = await this.policyUrlOf(url);
    const claims = await this.policies.releasedAttributes({ principal, service, serviceUrl: policyUrl, authentication: {}, grant });
    // A module's URL may stand for nothing later, so is asked again.
    if (lasting) remember(this.claimReleases, principal, service, key, { claimsMap: grant.claimsMap, claims });
    return claims;
  }

  /**
   * Claims released before, by principal object, service object, URL and scopes: a token's userinfo and
   * ID token ask again and again for one login session's principal (an OIDC client's claims, over its
   * serviceId), and a release is a function of the policy and its request (AttributeReleasePolicy). A
   * changed definition or a new login is a new object, so is never answered from here; a principal's
   * entries go with it. An AttributeMap is read-only: every caller gets the one kept.
   */
  private readonly claimReleases = new WeakMap<Principal, WeakMap<RegisteredService, Map<string, ClaimRelease>>>();

  /**
   * The URL the policies of `url`'s relying party know it by: a module's name for the party its own URL
   * stands for, else the URL itself. What a release is computed over, and what is kept for the party
   * from one login to the next (a consent decision). A module URL standing for nothing now is refused.
   */
  async policyUrl(url: string): Promise<string> {
    return (await this.policyUrlOf(url)).policyUrl;
  }

  /** policyUrl, and whether it stays the answer for good: a URL none of the modules' is its own policy URL for good. */
  private async policyUrlOf(url: string): Promise<{ readonly policyUrl: string; readonly lasting: boolean }> {
    const resolved = await this.resolve(url);
    if (resolved === null) throw new ServiceNotAuthorizedError();
    return resolved === undefined ? { policyUrl: url, lasting: true } : { policyUrl: resolved.policyUrl, lasting: false };
  }

  private async resolve(url: string) {
    for (const resolver of this.resolvers) {
      const resolved = await resolver.resolve(url);
      if (resolved !== undefined) return resolved;
    }
    return undefined;
  }

  /** A definition usable now by this client, before any user is known: not expired, its strategy allowing it. */
  private usable(service: RegisteredService, context: AccessContext): boolean {
    return !(context.now !== undefined && hasExpired(service, context.now)) && strategyAllows(service.accessStrategy, context);
  }

  private context(origin: RequestOrigin | undefined): AccessContext {
    return { now: this.clock.now(), client: origin === undefined ? {} : { address: origin.clientAddress, ...(origin.userAgent !== undefined && { userAgent: origin.userAgent }) } };
  }
}

function refused(reason: AdmissionRefusal, error: TesseraError): Admission {
  return { admitted: false, reason, error };
}

/** ISO-8601 in UTC to the second, as CAS clients print it. */
function isoInstant(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** What releasedClaims is asked: the claims of a grant to a service's client, over the URL it was asked for. */
interface ClaimsRequest {
  readonly service: RegisteredService;
  readonly url: string;
  readonly principal: Principal;
  readonly grant: ReleaseGrant;
}

/** Claims kept for reuse, with the claim map they were released under. */
interface ClaimRelease {
  readonly claimsMap: ReleaseGrant['claimsMap'];
  readonly claims: AttributeMap;
}

/** The most grants (scope sets) kept per principal and service: a client asking with ever new scope orders cannot grow it. */
const MAX_RELEASES_PER_SERVICE = 16;

function remember(releases: WeakMap<Principal, WeakMap<RegisteredService, Map<string, ClaimRelease>>>, principal: Principal, service: RegisteredService, key: string, release: ClaimRelease): void {
  let byService = releases.get(principal);
  if (byService === undefined) releases.set(principal, (byService = new WeakMap()));
  let byGrant = byService.get(service);
  if (byGrant === undefined) byService.set(service, (byGrant = new Map<string, ClaimRelease>()));
  if (byGrant.size >= MAX_RELEASES_PER_SERVICE) byGrant.clear();
  byGrant.set(key, release);
}

