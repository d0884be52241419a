import { z } from 'zod';
import type { HttpContext } from '../http-module.js';
import { flag, text } from '../request/parameter-schemas.js';
import { requestOrigin } from '../request/request-origin.js';
import { onlyMethods } from '../routes/only-methods.js';
import { defineRoute, type Route } from '../routes/route.js';
import { ticketIdOf } from '../tokens/jwt-requests.js';
import { samlValidateRoute } from './saml-validate.js';
import { renderValidationFailures, VALIDATION_ERRORS, validationFailures } from './validation-failures.js';
import { cas1View, casView } from './validation-views.js';

const cas1Query = z.object({
  service: text('The service URL the ticket was granted for; compared percent-decoded, without fragment, in any case.'),
  ticket: text('The service ticket (with the tokens module, also its JWT). It is used up by this attempt, whatever the outcome.'),
  renew: flag('Succeed only for a ticket from a fresh login.'),
});
const casQuery = cas1Query.extend({
  format: z
    .string()
    .optional()
    .transform((value) => (value?.trim().toUpperCase() === 'JSON' ? 'JSON' : 'XML'))
    .meta({ description: '`JSON` (any case) for a JSON answer; XML otherwise. The Accept header does not count.' }),
});

const ENDPOINTS = [
  { path: '/validate', operationId: 'validate', summary: 'Validate a service ticket (CAS 1)', view: cas1View, query: cas1Query },
  { path: '/serviceValidate', operationId: 'serviceValidate', summary: 'Validate a service ticket (CAS 2, with attributes)', view: casView, query: casQuery },
  { path: '/proxyValidate', operationId: 'proxyValidate', summary: 'Validate a service ticket (CAS 2 proxy path; plain STs)', view: casView, query: casQuery },
  { path: '/p3/serviceValidate', operationId: 'p3ServiceValidate', summary: 'Validate a service ticket (CAS 3)', view: casView, query: casQuery },
  { path: '/p3/proxyValidate', operationId: 'p3ProxyValidate', summary: 'Validate a service ticket (CAS 3 proxy path; plain STs)', view: casView, query: casQuery },
] as const;

/**
 * The CAS validation endpoints, always on. CAS 2 paths answer like CAS 3 (attributes included) and the
 * proxy paths accept plain STs. Every method is routed here so that even a wrong method gets a CAS document.
 * SAML 1.1's /samlValidate is one of them.
 */
export function validationRoutes(http: HttpContext): Route[] {
  const routes = ENDPOINTS.map(({ path, operationId, summary, view, query }) =>
    defineRoute({
      method: 'get',
      path,
      operationId,
      summary,
      everyMethod: true,
      request: { query },
      responses: { 200: { description: 'The ticket is valid for the service.', content: view.successContent } },
      errors: VALIDATION_ERRORS,
      failures: validationFailures(http.options, view),
      steps: [renderValidationFailures(http.options, http.events, view), http.limitRequestRate, onlyGet, http.readBody],
      async handle(ctx, { query }) {
        const result = await http.core.validateServiceTicket.execute({
          // A JWT ST stands for its stored ST, so it validates once, like any ST (docs/protocol.md §6).
          ticket: query.ticket === undefined ? undefined : await ticketIdOf(http, query.ticket),
          service: query.service,
          renew: query.renew,
          origin: requestOrigin(ctx),
        });
        ctx.status = 200;
        view.success(ctx, result);
      },
    }),
  );
  return [...routes, samlValidateRoute(http)];
}

const onlyGet = onlyMethods('GET', 'HEAD');
