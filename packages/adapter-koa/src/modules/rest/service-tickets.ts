import type { Context } from 'koa';
import { z } from 'zod';
import type { HttpContext } from '../../http-module.js';
import { flag, serviceUrl } from '../../request/parameter-schemas.js';
import { requestOrigin } from '../../request/request-origin.js';
import { typedInputOf } from '../../routes/route-input.js';
import { defineRoute, type Route } from '../../routes/route.js';
import { CREDENTIAL_ERRORS, credentialRequest, SERVICE, STORE_ERRORS } from '../../request/credential-request.js';
import { TICKET_ID } from './rest-requests.js';

/**
 * POST /v1/tickets/{tgt}: trade the TGT (its id, or its JWT with the tokens module) for an ST.
 * Credentials are read only with `renew`, where they must prove the TGT's principal again and mark
 * the ST as from a fresh login; so is the TGT's first ST within `newLoginWindowSeconds` of the login
 * (docs/protocol.md §3.3). SAML 1.1 clients name the service `TARGET` (CAS protocol §4): it
 * stands in for a missing or blank `service`. A `jwtAsServiceTicket` service gets the ST as a JWT.
 * Only a renew request checks credentials, so only it is throttled.
 */
export function grantServiceTicketRoute(http: HttpContext, newLoginWindowSeconds: number): Route {
  const request = {
    params: z.object({ tgt: TICKET_ID }),
    ...credentialRequest(http, {
      parameters: {
        service: SERVICE,
        TARGET: serviceUrl('The service URL as SAML 1.1 clients name it; read when `service` is absent or blank.'),
        renew: flag('Prove the login again with credentials in this request; the ST then counts as from a fresh login.'),
      },
    }),
  };
  const renewRequested = (ctx: Context) => typedInputOf(ctx, request).parameters.renew;
  return defineRoute({
    method: 'post',
    path: '/v1/tickets/{tgt}',
    operationId: 'grantServiceTicket',
    summary: 'Grant a service ticket (ST) from a TGT',
    description:
      "Credentials are read only with `renew`. The ST is from a new login (it validates with `renew=true`) with `renew`, or when it is the TGT's first within `rest.newLoginWindowSeconds` of the login. Granting an ST resets the TGT idle timer.",
    request,
    responses: {
      200: {
        description: 'The service ticket.',
        content: { 'text/plain': z.string().meta({ description: `The ST id${http.ticketEncodings.map(({ described }) => `, or ${described.serviceTicket}`).join('')}.` }) },
      },
    },
    errors: {
      ...CREDENTIAL_ERRORS,
      INVALID_REQUEST: 'No `service` (nor `TARGET`).',
      TICKET_NOT_FOUND: 'The TGT is unknown or expired.',
      ...STORE_ERRORS,
      STORE_CAPACITY_EXCEEDED: 'The ticket store is full.',
    },
    failures: http.restFailures,
    steps: [http.readBody, ...http.credentialGuards(renewRequested)],
    async handle(ctx, { params, parameters }) {
      const { renew } = parameters;
      const granted = await http.core.grantServiceTicket.execute({
        tgtId: await http.ticketIdOf(params.tgt),
        service: parameters.service ?? parameters.TARGET,
        renew,
        credentials: renew ? http.credentials(ctx) : [],
        firstTicketWithinSeconds: newLoginWindowSeconds,
        origin: requestOrigin(ctx),
      });
      ctx.status = 200;
      ctx.type = 'text/plain';
      const encoding = http.ticketEncodings.find((candidate) => candidate.encodesServiceTicketsFor(granted.service));
      ctx.body = encoding ? await encoding.serviceTicket(ctx, granted) : granted.ticket.id;
    },
  });
}
