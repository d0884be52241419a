import { z } from 'zod';
import type { HttpContext } from '../../http-module.js';
import { optionalFlag } from '../../request/parameter-schemas.js';
import { requestOrigin } from '../../request/request-origin.js';
import { requestUrl } from '../../request/request-url.js';
import { defineRoute, type Route } from '../../routes/route.js';
import { issuer } from '../../tokens/jwt-requests.js';
import { CREDENTIAL_ERRORS, credentialRequest, SERVICE, STORE_ERRORS } from './rest-requests.js';
import { acceptsHtml, tgtCreatedPage } from './tgt-created-page.js';

const TOKEN = 'Answer the TGT as a JWT (tokens module).';

/**
 * POST /v1/tickets: authenticate every extracted credential, optionally check `service`, answer 201.
 * With the tokens module and `token=true` the body is the TGT as a JWT, with no Location (as CAS).
 */
export function createTicketGrantingTicketRoute(http: HttpContext): Route {
  const tokens = http.tokens !== undefined;
  const request = credentialRequest(http, {
    parameters: { service: SERVICE, ...(tokens && { token: optionalFlag(`${TOKEN} Read before the \`token\` header.`) }) },
    headers: tokens ? { token: optionalFlag(`${TOKEN} Read when the parameter is absent or blank.`) } : {},
  });
  return defineRoute({
    method: 'post',
    path: '/v1/tickets',
    operationId: 'createTicketGrantingTicket',
    summary: 'Log in: create a ticket-granting ticket (TGT)',
    description: 'Every installed credential extractor reads the request; all it finds must be accepted and name one user.',
    request,
    responses: {
      201: {
        description: 'Logged in. The body depends on `Accept`: absent, `*/*` or `text/html` → an HTML page whose form action is the Location; otherwise the bare TGT id.',
        content: {
          'text/html': z.string().meta({ description: 'A page holding `<form action="<Location>">`.' }),
          'text/plain': z.string().meta({ description: tokens ? 'The TGT id, or with `token` the TGT as a JWT.' : 'The TGT id.' }),
        },
        headers: z.object({ Location: z.string().optional().meta({ description: `The TGT's URL: this request's URL and the TGT id.${tokens ? ' Absent with `token`.' : ''}` }) }),
      },
    },
    errors: { ...CREDENTIAL_ERRORS, ...STORE_ERRORS, STORE_CAPACITY_EXCEEDED: 'The ticket store is full.' },
    failures: http.restFailures,
    steps: [http.readBody, ...http.credentialGuards()],
    async handle(ctx, { parameters, headers, sentParameters }) {
      const { service } = parameters;
      const tgt = await http.core.createTicketGrantingTicket.execute({ credentials: http.credentials(ctx), ...(service !== undefined && { service }), origin: requestOrigin(ctx) });
      ctx.status = 201;
      if (http.tokens && (parameters.token ?? headers.token)) {
        ctx.type = 'text/plain';
        ctx.body = await http.tokens.ticketGrantingTicket(tgt, issuer(http.tokens, http, ctx), sentParameters);
        return;
      }
      const location = `${requestUrl(ctx, http.options)}/${tgt.id}`;
      ctx.set('Location', location);
      if (acceptsHtml(ctx.get('Accept'))) {
        ctx.type = 'text/html';
        ctx.body = tgtCreatedPage(location);
      } else {
        ctx.type = 'text/plain';
        ctx.body = tgt.id;
      }
    },
  });
}
