import { TicketNotFoundError } from '../domain/errors.js';
import type { Ticket } from '../domain/tickets/ticket.js';
import type { TicketStore } from '../ports/ticket-store.js';

/** GET /v1/tickets/{id}: the live ticket of any kind (404 otherwise). Does not extend a TGT. */
export class TicketStatus {
  constructor(private readonly tickets: TicketStore) {}

  async execute(id: string): Promise<Ticket> {
    const ticket = await this.tickets.get(id);
    if (!ticket) throw new TicketNotFoundError();
    return ticket;
  }
}
