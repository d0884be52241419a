import { z } from 'zod';
import type { HttpContext } from '../../http-module.js';
import { requestOrigin } from '../../request/request-origin.js';
import { defineRoute, type Route } from '../../routes/route.js';
import { STORE_ERRORS } from '../../request/credential-request.js';
import { TICKET_ID } from './rest-requests.js';

const request = { params: z.object({ id: TICKET_ID }) };

/** GET /v1/tickets/{id}: 200 with the id while the ticket lives, 404 otherwise. A TGT JWT stands for its id. */
export function ticketStatusRoute(http: HttpContext): Route {
  return defineRoute({
    method: 'get',
    path: '/v1/tickets/{id}',
    operationId: 'getTicketStatus',
    summary: 'Whether a ticket is still valid',
    description: 'A status check does not extend a TGT.',
    request,
    responses: { 200: { description: 'The ticket lives.', content: { 'text/plain': z.string().meta({ description: 'The ticket id.' }) } } },
    errors: { TICKET_NOT_FOUND: 'The ticket is unknown or expired.', ...STORE_ERRORS },
    failures: http.restFailures,
    steps: [http.readBody],
    async handle(ctx, { params }) {
      const ticket = await http.core.ticketStatus.execute(await http.ticketIdOf(params.id));
      ctx.status = 200;
      ctx.type = 'text/plain';
      ctx.body = ticket.id;
    },
  });
}

/**
 * DELETE /v1/tickets/{id}: logout, idempotent: 200 with the id as sent, known or not. A TGT JWT
 * logs out its TGT: a client holding only the JWT must be able to end its session.
 */
export function logoutRoute(http: HttpContext): Route {
  return defineRoute({
    method: 'delete',
    path: '/v1/tickets/{id}',
    operationId: 'destroyTicketGrantingTicket',
    summary: 'Log out: destroy a TGT and every ST it granted',
    request,
    responses: { 200: { description: 'Logged out, also for an unknown id.', content: { 'text/plain': z.string().meta({ description: 'The id as sent.' }) } } },
    errors: STORE_ERRORS,
    failures: http.restFailures,
    steps: [http.readBody],
    async handle(ctx, { params }) {
      await http.core.destroyTicketGrantingTicket.execute(await http.ticketIdOf(params.id), requestOrigin(ctx));
      ctx.status = 200;
      ctx.type = 'text/plain';
      ctx.body = params.id;
    },
  });
}
