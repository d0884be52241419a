import { z } from 'zod';
import type { HttpContext } from '../../http-module.js';
import { mergeShapes } from '../../request/credentials.js';
import { requestOrigin } from '../../request/request-origin.js';
import { requestUrl } from '../../request/request-url.js';
import { defineRoute, type Route } from '../../routes/route.js';
import { CREDENTIAL_ERRORS, credentialRequest, SERVICE, STORE_ERRORS } from '../../request/credential-request.js';
import { acceptsHtml, tgtCreatedPage } from './tgt-created-page.js';

/**
 * POST /v1/tickets: authenticate every extracted credential, optionally check `service`, answer 201.
 * A client that asks for the TGT in a ticket encoding (the tokens module's `token=true`) gets it as the
 * body, with no Location (as CAS).
 */
export function createTicketGrantingTicketRoute(http: HttpContext): Route {
  const encodings = http.ticketEncodings;
  const request = credentialRequest(http, {
    parameters: { service: SERVICE, ...mergeShapes(encodings.map((encoding) => encoding.request.parameters), 'parameter') },
    headers: mergeShapes(encodings.map((encoding) => encoding.request.headers), 'header'),
  });
  const requested = encodings.map(({ described }) => described.requested).join(' or ');
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
          'text/plain': z.string().meta({ description: `The TGT id${encodings.map(({ described }) => `, or ${described.requested} ${described.ticketGrantingTicket}`).join('')}.` }),
        },
        headers: z.object({ Location: z.string().optional().meta({ description: `The TGT's URL: this request's URL and the TGT id.${requested && ` Absent ${requested}.`}` }) }),
      },
    },
    errors: { ...CREDENTIAL_ERRORS, ...STORE_ERRORS, STORE_CAPACITY_EXCEEDED: 'The ticket store is full.' },
    failures: http.restFailures,
    steps: [http.readBody, ...http.credentialGuards()],
    async handle(ctx, input) {
      const { service } = input.parameters;
      const tgt = await http.core.createTicketGrantingTicket.execute({ credentials: http.credentials(ctx), ...(service !== undefined && { service }), origin: requestOrigin(ctx) });
      ctx.status = 201;
      const encoding = encodings.find((candidate) => candidate.requested(input));
      if (encoding) {
        ctx.type = 'text/plain';
        ctx.body = await encoding.ticketGrantingTicket(ctx, tgt, input.sentParameters);
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
