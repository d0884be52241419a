import type { HttpModule } from '../http-module.js';
import { grantServiceTicket, renewRequested } from './service-tickets.js';
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
      router.post('/v1/tickets', http.readBody, http.throttle(), createTicketGrantingTicket(http));
      router.post('/v1/tickets/:tgt', http.readBody, http.throttle(renewRequested), grantServiceTicket(http));
      router.get('/v1/tickets/:id', http.readBody, reportTicketStatus(http));
      router.delete('/v1/tickets/:id', http.readBody, destroyTicketGrantingTicket(http));
      router.post('/v1/users', http.readBody, http.throttle(), authenticateUser(http));
    },
  };
}
