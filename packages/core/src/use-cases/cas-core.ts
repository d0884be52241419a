import { TicketIdGenerator } from '../domain/tickets/ticket-ids.js';
import type { TicketLifetimes } from '../domain/tickets/lifetimes.js';
import type { AuthenticationPolicy } from '../ports/authentication-policy.js';
import type { Clock } from '../ports/clock.js';
import type { CredentialHandler } from '../ports/credential-handler.js';
import type { EventSink } from '../ports/event-sink.js';
import type { RandomSource } from '../ports/random-source.js';
import type { ServiceRegistry } from '../ports/service-registry.js';
import type { SessionListener } from '../ports/session-listener.js';
import type { TicketStore } from '../ports/ticket-store.js';
import { AuthenticateUser } from './authenticate-user.js';
import { Authenticator } from './authenticator.js';
import { CreateTicketGrantingTicket } from './create-ticket-granting-ticket.js';
import { DestroyTicketGrantingTicket } from './destroy-ticket-granting-ticket.js';
import { GrantServiceTicket } from './grant-service-ticket.js';
import { ServiceAccess } from './service-access.js';
import { TicketStatus } from './ticket-status.js';
import { ValidateServiceTicket } from './validate-service-ticket.js';

export interface CasCoreDependencies {
  readonly tickets: TicketStore;
  readonly registry: ServiceRegistry;
  /** In the order they are tried for a credential. */
  readonly handlers: readonly CredentialHandler[];
  /** Checked once all credentials resolved to one principal (the otp module's second-factor rules). */
  readonly policies?: readonly AuthenticationPolicy[];
  readonly clock: Clock;
  readonly random: RandomSource;
  /** Suffix of ticket ids, e.g. the host name up to its first dot. */
  readonly nodeName: string;
  readonly lifetimes: TicketLifetimes;
  readonly events: EventSink;
  /** Told of each grant and each logout (the login module's single logout); none without it. */
  readonly sessionListener?: SessionListener;
}

/** Every use case of the CAS protocol, wired to one set of ports. */
export interface CasCore {
  /** The time every use case reads, for adapters that stamp documents (SAML issue instants). */
  readonly clock: Clock;
  /** The one id generator of the process (its counter numbers every ticket), for modules that issue tickets. */
  readonly ids: TicketIdGenerator;
  readonly lifetimes: TicketLifetimes;
  readonly authenticator: Authenticator;
  readonly serviceAccess: ServiceAccess;
  readonly createTicketGrantingTicket: CreateTicketGrantingTicket;
  readonly grantServiceTicket: GrantServiceTicket;
  readonly validateServiceTicket: ValidateServiceTicket;
  readonly ticketStatus: TicketStatus;
  readonly destroyTicketGrantingTicket: DestroyTicketGrantingTicket;
  readonly authenticateUser: AuthenticateUser;
}

export function createCasCore(deps: CasCoreDependencies): CasCore {
  const ids = new TicketIdGenerator(deps.random, deps.nodeName);
  const authenticator = new Authenticator(deps.handlers, deps.clock, deps.events, deps.policies);
  const serviceAccess = new ServiceAccess(deps.registry);
  const issuing = [authenticator, serviceAccess, deps.tickets, ids, deps.clock, deps.lifetimes, deps.events] as const;
  return {
    clock: deps.clock,
    ids,
    lifetimes: deps.lifetimes,
    authenticator,
    serviceAccess,
    createTicketGrantingTicket: new CreateTicketGrantingTicket(...issuing),
    grantServiceTicket: new GrantServiceTicket(...issuing, deps.sessionListener),
    validateServiceTicket: new ValidateServiceTicket(deps.tickets, serviceAccess, deps.events),
    ticketStatus: new TicketStatus(deps.tickets),
    destroyTicketGrantingTicket: new DestroyTicketGrantingTicket(deps.tickets, deps.events, deps.sessionListener),
    authenticateUser: new AuthenticateUser(authenticator, serviceAccess, deps.events),
  };
}
