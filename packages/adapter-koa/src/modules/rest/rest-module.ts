import type { Context, Next } from 'koa';
import type { RestRevision } from '../../errors/error-status.js';
import { renderRestError } from '../../errors/rest-errors.js';
import { restFailures } from '../../errors/rest-failures.js';
import type { HttpContext, HttpModule, Step } from '../../http-module.js';
import type { Route } from '../../routes/route.js';
import { grantServiceTicketRoute } from './service-tickets.js';
import { createTicketGrantingTicketRoute } from './ticket-granting-tickets.js';
import { logoutRoute, ticketStatusRoute } from './ticket-status.js';
import { authenticateUserRoute } from './users.js';

export interface RestModuleOptions {
  /** How long after its login a TGT's first ST still counts as from a new login (docs/protocol.md §3.3). */
  readonly newLoginWindowSeconds: number;
  /** The revision of the protocol its routes speak (`rest.revision`): `earlier` answers bad credentials with 400, as CAS 4.x did. */
  readonly revision: RestRevision;
}

/**
 * The `rest` module (docs/protocol.md §3): tickets and authentication over REST. GET /v1/tickets has no
 * route, so the router answers it 405 with `Allow: POST`.
 */
export function restModule({ newLoginWindowSeconds, revision }: RestModuleOptions): HttpModule {
  return {
    name: 'rest',
    routes: (http) =>
      speaking(revision, http, [
        createTicketGrantingTicketRoute(http),
        grantServiceTicketRoute(http, newLoginWindowSeconds),
        ticketStatusRoute(http),
        logoutRoute(http),
        authenticateUserRoute(http),
      ]),
  };
}

/**
 * The routes answering failures in `revision`: rendered as every REST failure is (restErrors), with
 * the statuses of that revision, by a step before all others; and documented with them. The
 * revision is this module's alone: no other route reads it.
 */
function speaking(revision: RestRevision, http: HttpContext, routes: readonly Route[]): Route[] {
  const settings = { ...http.options, restRevision: revision };
  const renderFailures: Step = async function renderRevisionFailures(ctx: Context, next: Next) {
    try {
      await next();
    } catch (thrown) {
      renderRestError(ctx, thrown, settings, http.events);
    }
  };
  const failures = restFailures(settings);
  return routes.map((route) => ({ ...route, failures, steps: [renderFailures, ...route.steps] }));
}
