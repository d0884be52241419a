import type { TicketIdGenerator } from '../domain/tickets/ticket-ids.js';
import type { TicketLifetimes } from '../domain/tickets/lifetimes.js';
import type { Clock } from '../ports/clock.js';
import type { AuthenticateUser } from './authenticate-user.js';
import type { Authenticator } from './authenticator.js';
import type { CreateTicketGrantingTicket } from './create-ticket-granting-ticket.js';
import type { DestroyTicketGrantingTicket } from './destroy-ticket-granting-ticket.js';
import type { GrantServiceTicket } from './grant-service-ticket.js';
import type { ServiceAccess } from './service-access.js';
import type { TicketStatus } from './ticket-status.js';
import type { ValidateServiceTicket } from './validate-service-ticket.js';

/**
 * Every use case of the CAS protocol, as the adapters take them. The composition root builds each
 * (cli-server's container), so there is one graph of the server's parts.
 */
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
