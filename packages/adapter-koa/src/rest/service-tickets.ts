import type { RouterContext } from '@koa/router';
import type { Context } from 'koa';
import type { HttpContext } from '../http-module.js';
import { isTruthy } from '../request/flags.js';
import { optionalParameter, requestParameters } from '../request/parameters.js';
import { requestOrigin } from '../request/request-origin.js';
import { issuer, ticketIdOf } from '../tokens/jwt-requests.js';

/**
 * POST /v1/tickets/{tgt}: trade the TGT (its id, or its JWT with the tokens module) for an ST.
 * Credentials are read only with `renew`, where they must prove the TGT's principal again and mark
 * the ST as from a fresh login. SAML 1.1 clients name the service `TARGET` (CAS protocol §4): it
 * stands in for a missing or blank `service`. A `jwtAsServiceTicket` service gets the ST as a JWT.
 */
/** Only a renew request checks credentials here, so only it is throttled. */
export function renewRequested(ctx: Context): boolean {
  return isTruthy(requestParameters(ctx).get('renew'));
}

export function grantServiceTicket(http: HttpContext) {
  return async function grantServiceTicket(ctx: RouterContext): Promise<void> {
    const parameters = http.parameters(ctx);
    const renew = isTruthy(parameters.get('renew'));
    const granted = await http.core.grantServiceTicket.execute({
      tgtId: await ticketIdOf(http, ctx.params.tgt ?? ''),
      service: optionalParameter(parameters, 'service') ?? parameters.get('TARGET'),
      renew,
      credentials: renew ? http.credentials(ctx) : [],
      origin: requestOrigin(ctx),
    });
    ctx.status = 200;
    ctx.type = 'text/plain';
    const { tokens } = http;
    ctx.body = tokens?.wantsJwtServiceTicket(granted.service) ? await tokens.serviceTicket(granted, issuer(tokens, http, ctx)) : granted.ticket.id;
  };
}
