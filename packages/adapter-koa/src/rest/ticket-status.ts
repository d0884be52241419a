import type { RouterContext } from '@koa/router';
import type { HttpContext } from '../http-module.js';
import { requestOrigin } from '../request/request-origin.js';
import { ticketIdOf } from '../tokens/jwt-requests.js';

/** GET /v1/tickets/{id}: 200 with the id while the ticket lives, 404 otherwise. A TGT JWT stands for its id. */
export function reportTicketStatus(http: HttpContext) {
  return async function reportTicketStatus(ctx: RouterContext): Promise<void> {
    const ticket = await http.core.ticketStatus.execute(await ticketIdOf(http, ctx.params.id ?? ''));
    ctx.status = 200;
    ctx.type = 'text/plain';
    ctx.body = ticket.id;
  };
}

/**
 * DELETE /v1/tickets/{id}: logout, idempotent: 200 with the id as sent, known or not. A TGT JWT
 * logs out its TGT: a client holding only the JWT must be able to end its session.
 */
export function destroyTicketGrantingTicket(http: HttpContext) {
  return async function destroyTicketGrantingTicket(ctx: RouterContext): Promise<void> {
    const id = ctx.params.id ?? '';
    await http.core.destroyTicketGrantingTicket.execute(await ticketIdOf(http, id), requestOrigin(ctx));
    ctx.status = 200;
    ctx.type = 'text/plain';
    ctx.body = id;
  };
}
