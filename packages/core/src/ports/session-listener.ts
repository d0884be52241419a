import type { RequestOrigin } from '../domain/events.js';
import type { RegisteredService } from '../domain/registry/registered-service.js';
import type { TicketGrantingTicket } from '../domain/tickets/ticket.js';

/** A ticket a TGT handed to a service: an ST, or a PT a proxy got under the TGT for a target service. */
export interface GrantedTicket {
  readonly id: string;
  /** The service URL exactly as requested. */
  readonly service: string;
}

/**
 * Told about a login session (a TGT) beyond its tickets: the login module's single logout listens, and
 * a module that keeps something of its own with a session (the delegation module: what an upstream's
 * logout needs). Every method is awaited by the use case, so a validated ticket is recorded before the service
 * hears of its success and a logout is handled before it answers. An error fails the use case (a
 * store that cannot answer: 503).
 */
export interface SessionListener {
  /** A new login session was made (its TGT stored): what a module keeps with it may be keyed by it from now on. */
  started?(tgt: TicketGrantingTicket, origin?: RequestOrigin): Promise<void>;
  /**
   * `ticket`, granted by `tgt` to `service` (its definition as the validation found it), was validated:
   * the service now holds a session of its own for this login. A ticket never validated opened none.
   */
  validated(tgt: TicketGrantingTicket, ticket: GrantedTicket, service: RegisteredService, origin?: RequestOrigin): Promise<void>;
  /** The TGT was destroyed (a logout), its descendants with it. Called also for an id that was unknown. */
  ended(tgtId: string, origin?: RequestOrigin): Promise<void>;
}
