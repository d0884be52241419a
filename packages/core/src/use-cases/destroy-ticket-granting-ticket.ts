import type { RequestOrigin } from '../domain/events.js';
import { ticketFingerprint } from '../domain/tickets/fingerprint.js';
import type { EventSink } from '../ports/event-sink.js';
import type { SessionListener } from '../ports/session-listener.js';
import type { TicketStore } from '../ports/ticket-store.js';

/**
 * DELETE /v1/tickets/{tgt} and the login module's logout: idempotent. The TGT goes first, then its
 * descendants (STs, PGTs, PTs); one granted in between never validates, because validation requires a
 * live TGT. Then the session listener (single logout) is told.
 */
export class DestroyTicketGrantingTicket {
  constructor(
    private readonly tickets: TicketStore,
    private readonly events: EventSink,
    private readonly listener?: SessionListener,
  ) {}

  async execute(id: string, origin?: RequestOrigin): Promise<void> {
    const found = await this.tickets.get(id);
    await this.tickets.remove(id);
    const descendants = await this.tickets.removeDescendants(id);
    if (found !== undefined || descendants > 0) {
      const principal = found?.kind === 'TGT' ? found.authentication.principal.id : undefined;
      this.events.emit({ type: 'ticket.destroyed', ticket: ticketFingerprint(id), descendants, ...(principal !== undefined && { principal }) }, origin);
    }
    // Also for a TGT already expired: its services may not have been told yet.
    if (found === undefined || found.kind === 'TGT') await this.listener?.ended(id, origin);
  }
}
