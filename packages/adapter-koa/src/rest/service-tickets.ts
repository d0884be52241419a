import type { RouterContext } from '@koa/router';
import type { HttpContext } from '../http-module.js';
import { isTruthy } from '../request/flags.js';

/**
 * POST /v1/tickets/{tgt}: trade the TGT for an ST. Credentials are read only with `renew`, where
 * they must prove the TGT's principal again and mark the ST as from a fresh login.
 */
export function grantServiceTicket(http: HttpContext) {
  return async function grantServiceTicket(ctx: RouterContext): Promise<void> {
    const parameters = http.parameters(ctx);
    const renew = isTruthy(parameters.get('renew'));
    const { ticket } = await http.core.grantServiceTicket.execute({
      tgtId: ctx.params.tgt ?? '',
      service: parameters.get('service'),
      renew,
      credentials: renew ? http.credentials(ctx) : [],
    });
    ctx.status = 200;
    ctx.type = 'text/plain';
    ctx.body = ticket.id;
  };
}
