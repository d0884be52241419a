import type { ServiceTypes } from '../domain/registry/service-types.js';
import { TicketIdGenerator } from '../domain/tickets/ticket-ids.js';
import type { TicketLifetimes } from '../domain/tickets/lifetimes.js';
import type { AdmissionRule } from '../ports/admission-rule.js';
import type { AuthenticationListener } from '../ports/authentication-listener.js';
import type { AuthenticationPolicy } from '../ports/authentication-policy.js';
import type { Clock } from '../ports/clock.js';
import type { CredentialHandler } from '../ports/credential-handler.js';
import type { EventSink } from '../ports/event-sink.js';
import type { RandomSource } from '../ports/random-source.js';
import type { ServiceRegistry } from '../ports/service-registry.js';
import type { SessionListener } from '../ports/session-listener.js';
import type { TicketStore } from '../ports/ticket-store.js';
import type { RelyingPartyResolver } from '../ports/relying-party-resolver.js';
import type { SecondFactorProvider } from '../ports/second-factor.js';
import type { ServicePolicies } from '../service-policies/service-policies.js';
import { AuthenticateUser } from './authenticate-user.js';
import { Authenticator } from './authenticator.js';
import { CreateTicketGrantingTicket } from './create-ticket-granting-ticket.js';
import { DestroyTicketGrantingTicket } from './destroy-ticket-granting-ticket.js';
import { GrantServiceTicket } from './grant-service-ticket.js';
import { SecondFactorRequirement } from './second-factor-requirement.js';
import { RelyingPartyAccess } from './relying-party-access.js';
import { TicketStatus } from './ticket-status.js';
import { ValidateServiceTicket } from './validate-service-ticket.js';

/**
 * Every use case of the CAS protocol, as the adapters take them. `createCasCore` builds them, for the
 * composition root (cli-server's container) and for tests alike, so there is one graph of the server's parts.
 */
export interface CasCore {
  /** The time every use case reads, for adapters that stamp documents (SAML issue instants). */
  readonly clock: Clock;
  /** The one id generator of the process (its counter numbers every ticket), for modules that issue tickets. */
  readonly ids: TicketIdGenerator;
  readonly lifetimes: TicketLifetimes;
  readonly authenticator: Authenticator;
  /** The one relying-party path: which service a request reaches, whether a session may reach it, who the user is to it and what it receives. */
  readonly relyingParties: RelyingPartyAccess;
  readonly createTicketGrantingTicket: CreateTicketGrantingTicket;
  readonly grantServiceTicket: GrantServiceTicket;
  readonly validateServiceTicket: ValidateServiceTicket;
  readonly ticketStatus: TicketStatus;
  readonly destroyTicketGrantingTicket: DestroyTicketGrantingTicket;
  readonly authenticateUser: AuthenticateUser;
  /** What services' `multifactorPolicy` ask of a login (the browser login's step-up reads it too). */
  readonly secondFactor: SecondFactorRequirement;
}

/** The ports the use cases work on; the optional ones are bound by modules. */
export interface CasCorePorts {
  readonly tickets: TicketStore;
  readonly registry: ServiceRegistry;
  /** In the order they are tried for a credential. */
  readonly handlers: readonly CredentialHandler[];
  /** Rules over a whole authentication, in order. */
  readonly policies?: readonly AuthenticationPolicy[];
  /** Told of each successful authentication and the credentials it accepted (the throttle). */
  readonly authenticationListeners?: readonly AuthenticationListener[];
  readonly events: EventSink;
  readonly clock: Clock;
  readonly random: RandomSource;
  /** Told of every validated ticket and every logout (single logout). */
  readonly sessionListener?: SessionListener | undefined;
  /** What a service is told of its user: the release policies and username providers, by class. */
  readonly servicePolicies: ServicePolicies;
  /** The second factors services' `multifactorPolicy` may ask, each by its id, one per module that brings one; without any nobody can give one. */
  readonly secondFactors?: readonly SecondFactorProvider[];
  /** Protocol modules' own URLs that stand for a relying party (the oidc module's login callback), asked in order. */
  readonly relyingPartyResolvers?: readonly RelyingPartyResolver[];
  /** The service classes modules bring, and those served now: which services CAS service URLs find. Without them every service is a CAS service. */
  readonly serviceTypes?: ServiceTypes;
  /** Modules' rules over which logins may reach a service (the delegation module's delegatedAuthenticationPolicy). */
  readonly admissionRules?: readonly AdmissionRule[];
}

/** What the use cases take from the settings. */
export interface CasCoreSettings {
  /** The suffix of every ticket id this process issues. */
  readonly nodeName: string;
  readonly lifetimes: TicketLifetimes;
}

/** The use cases on the given ports, each built once and shared: the CasCore the adapters take. */
export function createCasCore(ports: CasCorePorts, settings: CasCoreSettings): CasCore {
  const { tickets, registry, handlers, policies = [], authenticationListeners = [], events, clock, random, sessionListener, servicePolicies, secondFactors = [], relyingPartyResolvers = [], serviceTypes, admissionRules = [] } = ports;
  const { lifetimes } = settings;
  const ids = new TicketIdGenerator(random, settings.nodeName);
  const authenticator = new Authenticator(handlers, clock, events, policies, authenticationListeners);
  const secondFactorRequirement = new SecondFactorRequirement(secondFactors);
  const relyingParties = new RelyingPartyAccess(registry, clock, lifetimes, servicePolicies, secondFactorRequirement, relyingPartyResolvers, serviceTypes, admissionRules);
  return {
    clock,
    ids,
    lifetimes,
    authenticator,
    relyingParties,
    createTicketGrantingTicket: new CreateTicketGrantingTicket(authenticator, relyingParties, tickets, ids, clock, lifetimes, events, sessionListener),
    grantServiceTicket: new GrantServiceTicket(authenticator, relyingParties, tickets, ids, clock, lifetimes, events),
    validateServiceTicket: new ValidateServiceTicket(tickets, relyingParties, events, sessionListener),
    ticketStatus: new TicketStatus(tickets),
    destroyTicketGrantingTicket: new DestroyTicketGrantingTicket(tickets, events, sessionListener),
    authenticateUser: new AuthenticateUser(authenticator, relyingParties, events),
    secondFactor: secondFactorRequirement,
  };
}
