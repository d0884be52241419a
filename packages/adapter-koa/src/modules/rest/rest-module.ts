import type { HttpModule } from '../../http-module.js';
import { grantServiceTicketRoute } from './service-tickets.js';
import { createTicketGrantingTicketRoute } from './ticket-granting-tickets.js';
import { logoutRoute, ticketStatusRoute } from './ticket-status.js';
import { authenticateUserRoute } from './users.js';

/**
 * The `rest` module (docs/protocol.md §3): tickets and authentication over REST. GET /v1/tickets has no
 * route, so the router answers it 405 with `Allow: POST`.
 */
export function restModule(): HttpModule {
  return {
    name: 'rest',
    routes: (http) => [createTicketGrantingTicketRoute(http), grantServiceTicketRoute(http), ticketStatusRoute(http), logoutRoute(http), authenticateUserRoute(http)],
  };
}
