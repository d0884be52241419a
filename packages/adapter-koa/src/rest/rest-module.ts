import type { HttpModule } from '../http-module.js';
import { grantServiceTicket } from './service-tickets.js';
import { createTicketGrantingTicket } from './ticket-granting-tickets.js';
import { destroyTicketGrantingTicket, reportTicketStatus } from './ticket-status.js';
import { authenticateUser } from './users.js';

/**
 * The `rest` module (protocol.md §3): tickets and authentication over REST. GET /v1/tickets has no
 * route, so the router answers it 405 with `Allow: POST`.
 */
export function restModule(): HttpModule {
  return {
    name: 'rest',
    register(router, http) {
      router.post('/v1/tickets', http.readBody, createTicketGrantingTicket(http));
      router.post('/v1/tickets/:tgt', http.readBody, grantServiceTicket(http));
      router.get('/v1/tickets/:id', http.readBody, reportTicketStatus(http));
      router.delete('/v1/tickets/:id', http.readBody, destroyTicketGrantingTicket(http));
      router.post('/v1/users', http.readBody, authenticateUser(http));
    },
  };
}
