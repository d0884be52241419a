import {
  AuthenticateUser,
  Authenticator,
  CreateTicketGrantingTicket,
  DestroyTicketGrantingTicket,
  GrantServiceTicket,
  ServiceAccess,
  TicketIdGenerator,
  TicketStatus,
  ValidateServiceTicket,
  BUILT_IN_RELEASE_POLICIES,
  BUILT_IN_USERNAME_PROVIDERS,
  ServicePolicies,
  type AuthenticationListener,
  type AuthenticationPolicy,
  type CasCore,
  type Clock,
  type CredentialHandler,
  type EventSink,
  type RandomSource,
  type ServiceRegistry,
  type SessionListener,
  type TicketLifetimes,
  type TicketStore,
} from '@tessera/core';

export interface TestCoreParts {
  readonly tickets: TicketStore;
  readonly registry: ServiceRegistry;
  /** In the order they are tried for a credential. */
  readonly handlers: readonly CredentialHandler[];
  readonly policies?: readonly AuthenticationPolicy[];
  /** Told of each successful authentication (the throttle). */
  readonly authenticationListeners?: readonly AuthenticationListener[];
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly nodeName: string;
  readonly lifetimes: TicketLifetimes;
  readonly events: EventSink;
  readonly sessionListener?: SessionListener;
  /** The release policies and username providers; the built-in ones when omitted. */
  readonly servicePolicies?: ServicePolicies;
}

/** The registry the server always has: the built-in release policies and username provider. */
export function builtInServicePolicies(): ServicePolicies {
  return new ServicePolicies({ releasePolicies: BUILT_IN_RELEASE_POLICIES, usernameProviders: BUILT_IN_USERNAME_PROVIDERS });
}

/**
 * The use cases on the given ports, for tests of the adapters that take a CasCore. The server itself
 * builds them in its container (cli-server); this is the same graph without one.
 */
export function testCore(parts: TestCoreParts): CasCore {
  const ids = new TicketIdGenerator(parts.random, parts.nodeName);
  const authenticator = new Authenticator(parts.handlers, parts.clock, parts.events, parts.policies, parts.authenticationListeners);
  const serviceAccess = new ServiceAccess(parts.registry);
  const issuing = [authenticator, serviceAccess, parts.tickets, ids, parts.clock, parts.lifetimes, parts.events] as const;
  return {
    clock: parts.clock,
    ids,
    lifetimes: parts.lifetimes,
    authenticator,
    serviceAccess,
    createTicketGrantingTicket: new CreateTicketGrantingTicket(...issuing),
    grantServiceTicket: new GrantServiceTicket(...issuing),
    validateServiceTicket: new ValidateServiceTicket(parts.tickets, serviceAccess, parts.servicePolicies ?? builtInServicePolicies(), parts.events, parts.sessionListener),
    ticketStatus: new TicketStatus(parts.tickets),
    destroyTicketGrantingTicket: new DestroyTicketGrantingTicket(parts.tickets, parts.events, parts.sessionListener),
    authenticateUser: new AuthenticateUser(authenticator, serviceAccess, parts.events),
  };
}
