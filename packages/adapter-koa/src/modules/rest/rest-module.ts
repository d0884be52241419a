import type { HttpModule } from '../../http-module.js';
import { grantServiceTicketRoute } from './service-tickets.js';
import { createTicketGrantingTicketRoute } from './ticket-granting-tickets.js';
import { logoutRoute, ticketStatusRoute } from './ticket-status.js';
import { authenticateUserRoute } from './users.js';

export interface RestModuleOptions {
  /** How long after its login a TGT's first ST still counts as from a new login (docs/protocol.md §3.3). */
  readonly newLoginWindowSeconds: number;
}

/**
 * The `rest` module (docs/protocol.md §3): tickets and authentication over REST. GET /v1/tickets has no
 * route, so the router answers it 405 with `Allow: POST`.
 */
export function restModule({ newLoginWindowSeconds }: RestModuleOptions): HttpModule {
  return {
    name: 'rest',
    routes: (http) => [
      createTicketGrantingTicketRoute(http),
      grantServiceTicketRoute(http, newLoginWindowSeconds),
      ticketStatusRoute(http),
      logoutRoute(http),
      authenticateUserRoute(http),
    ],
  };
}
