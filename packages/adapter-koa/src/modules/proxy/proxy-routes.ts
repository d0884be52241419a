import type { GrantProxyTicket } from '@tessera/core/modules/proxy';
import { z } from 'zod';
import type { HttpContext } from '../../http-module.js';
import { serviceUrl, text } from '../../request/parameter-schemas.js';
import { requestOrigin } from '../../request/request-origin.js';
import { onlyMethods } from '../../routes/only-methods.js';
import { defineRoute, type Route } from '../../routes/route.js';
import { renderValidationFailures, validationFailures } from '../../validation/validation-failures.js';
import { responseFormat } from '../../validation/validation-views.js';
import { proxyView } from './proxy-views.js';

const proxyQuery = z.object({
  pgt: text('The proxy-granting ticket the proxy received at its callback URL.'),
  targetService: serviceUrl('The service the proxy ticket is for: a registered, enabled service taking part in single sign-on.'),
  format: z
    .string()
    .optional()
    .transform(responseFormat)
    .meta({ description: '`JSON` (any case) for a JSON answer; XML otherwise.' }),
});

const onlyGet = onlyMethods('GET', 'HEAD');

/** GET /proxy (CAS protocol 3.0 §2.7): a PGT gets a PT for a target service. Wrong methods get a CAS document too. */
export function proxyRoute(http: HttpContext, grant: GrantProxyTicket): Route {
  return defineRoute({
    method: 'get',
    path: '/proxy',
    operationId: 'proxy',
    summary: 'Get a proxy ticket for a target service with a proxy-granting ticket (CAS 2 and 3)',
    everyMethod: true,
    request: { query: proxyQuery },
    responses: { 200: { description: 'A one-time proxy ticket (`PT-…`) for the target service.', content: proxyView.successContent } },
    errors: {
      TICKET_VALIDATION_FAILED:
        'INVALID_REQUEST (a parameter missing), INVALID_TICKET (the PGT unknown, expired or its login session ended) or UNAUTHORIZED_SERVICE (the target service, or the proxy, not allowed).',
      STORE_UNAVAILABLE: 'INTERNAL_ERROR: a store the server depends on is unavailable.',
    },
    failures: validationFailures(http.options, proxyView),
    steps: [renderValidationFailures(http.options, http.events, proxyView), ...http.validationGuards, onlyGet, http.readBody],
    async handle(ctx, { query }) {
      const ticket = await grant.execute({ pgt: query.pgt, targetService: query.targetService, origin: requestOrigin(ctx) });
      ctx.status = 200;
      proxyView.success(ctx, ticket.id);
    },
  });
}
