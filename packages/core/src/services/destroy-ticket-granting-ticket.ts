import type { RequestOrigin } from '../domain/events.js';
import { ticketFingerprint } from '../domain/tickets/fingerprint.js';
import type { EventSink } from '../ports/event-sink.js';
import type { TicketStore } from '../ports/ticket-store.js';

/**
 * DELETE /v1/tickets/{tgt}: logout. Idempotent. The TGT goes first, then its STs; an ST granted in
 * between never validates, because validation requires a live parent.
 */
export class DestroyTicketGrantingTicket {
  constructor(
    private readonly tickets: TicketStore,
    private readonly events: EventSink,
  ) {}

  async execute(id: string, origin?: RequestOrigin): Promise<void> {
    const found = await this.tickets.get(id);
    await this.tickets.remove(id);
    const descendants = await this.tickets.removeDescendants(id);
    if (found === undefined && descendants === 0) return;
    const principal = found?.kind === 'TGT' ? found.authentication.principal.id : undefined;
    this.events.emit({ type: 'ticket.destroyed', ticket: ticketFingerprint(id), descendants, ...(principal !== undefined && { principal }) }, origin);
  }
}
