import type { RouterContext } from '@koa/router';
import type { HttpContext } from '../http-module.js';
import { optionalParameter } from '../request/parameters.js';
import { requestOrigin } from '../request/request-origin.js';
import { requestUrl } from '../request/request-url.js';
import { allParameters, issuer, wantsTokenResponse } from '../tokens/jwt-requests.js';
import { acceptsHtml, tgtCreatedPage } from './tgt-created-page.js';

/**
 * POST /v1/tickets: authenticate every extracted credential, optionally check `service`, answer 201.
 * With the tokens module and `token=true` the body is the TGT as a JWT, with no Location (as CAS).
 */
export function createTicketGrantingTicket(http: HttpContext) {
  return async function createTicketGrantingTicket(ctx: RouterContext): Promise<void> {
    const credentials = http.credentials(ctx);
    const service = optionalParameter(http.parameters(ctx), 'service');
    const tgt = await http.core.createTicketGrantingTicket.execute({ credentials, ...(service !== undefined && { service }), origin: requestOrigin(ctx) });

    ctx.status = 201;
    if (http.tokens && wantsTokenResponse(http, ctx)) {
      ctx.type = 'text/plain';
      ctx.body = await http.tokens.ticketGrantingTicket(tgt, issuer(http.tokens, http, ctx), allParameters(http, ctx));
      return;
    }
    const location = `${requestUrl(ctx)}/${tgt.id}`;
    ctx.set('Location', location);
    if (acceptsHtml(ctx.get('Accept'))) {
      ctx.type = 'text/html';
      ctx.body = tgtCreatedPage(location);
    } else {
      ctx.type = 'text/plain';
      ctx.body = tgt.id;
    }
  };
}
