import type { RouterContext } from '@koa/router';
import type { HttpContext } from '../http-module.js';
import { isTruthy } from '../request/flags.js';
import { optionalParameter } from '../request/parameters.js';

/**
 * POST /v1/tickets/{tgt}: trade the TGT for an ST. Credentials are read only with `renew`, where
 * they must prove the TGT's principal again and mark the ST as from a fresh login. SAML 1.1 clients name
 * the service `TARGET` (CAS protocol §4): it stands in for a missing or blank `service`.
 */
export function grantServiceTicket(http: HttpContext) {
  return async function grantServiceTicket(ctx: RouterContext): Promise<void> {
    const parameters = http.parameters(ctx);
    const renew = isTruthy(parameters.get('renew'));
    const { ticket } = await http.core.grantServiceTicket.execute({
      tgtId: ctx.params.tgt ?? '',
      service: optionalParameter(parameters, 'service') ?? parameters.get('TARGET'),
      renew,
      credentials: renew ? http.credentials(ctx) : [],
    });
    ctx.status = 200;
    ctx.type = 'text/plain';
    ctx.body = ticket.id;
  };
}
