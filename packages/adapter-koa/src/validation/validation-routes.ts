import { z } from 'zod';
import type { HttpContext } from '../http-module.js';
import { mergeShapes } from '../request/credentials.js';
import { flag, serviceUrl, text } from '../request/parameter-schemas.js';
import { requestOrigin } from '../request/request-origin.js';
import { onlyMethods } from '../routes/only-methods.js';
import { defineRoute, type Route } from '../routes/route.js';
import { samlValidateRoute } from './saml-validate.js';
import { renderValidationFailures, VALIDATION_ERRORS, validationFailures } from './validation-failures.js';
import { cas1View, casView, responseFormat, type ValidationAnswer } from './validation-views.js';

const cas1Query = z.object({
  service: serviceUrl('The service URL the ticket was granted for; compared percent-decoded, without fragment, in any case.'),
  ticket: text('The service ticket (with the tokens module, also its JWT). It is used up by this attempt, whatever the outcome.'),
  renew: flag('Succeed only for a ticket from a fresh login.'),
});
const casQuery = cas1Query.extend({
  format: z
    .string()
    .optional()
    .transform(responseFormat)
    .meta({ description: '`JSON` (any case) for a JSON answer; XML otherwise. The Accept header does not count.' }),
});

const ENDPOINTS = [
  { path: '/validate', operationId: 'validate', summary: 'Validate a service ticket (CAS 1)', view: cas1View, extended: false, proxyTickets: false, protocol: 'CAS10' },
  { path: '/serviceValidate', operationId: 'serviceValidate', summary: 'Validate a service ticket (CAS 2, with attributes)', view: casView, extended: true, proxyTickets: false, protocol: 'CAS20' },
  { path: '/proxyValidate', operationId: 'proxyValidate', summary: 'Validate a service or proxy ticket (CAS 2, with attributes and the proxy chain)', view: casView, extended: true, proxyTickets: true, protocol: 'CAS20' },
  { path: '/p3/serviceValidate', operationId: 'p3ServiceValidate', summary: 'Validate a service ticket (CAS 3)', view: casView, extended: true, proxyTickets: false, protocol: 'CAS30' },
  { path: '/p3/proxyValidate', operationId: 'p3ProxyValidate', summary: 'Validate a service or proxy ticket (CAS 3, with the proxy chain)', view: casView, extended: true, proxyTickets: true, protocol: 'CAS30' },
] as const;

/**
 * The CAS validation endpoints, always on. CAS 2 paths answer like CAS 3 (attributes included). The
 * proxy paths validate STs and PTs; the others refuse PTs. Each path is one protocol (CAS10, CAS20,
 * CAS30), which a service's `supportedProtocols` may leave out. Every path but /validate takes the query
 * parameters of the validation extensions (the proxy module's `pgtUrl`) and answers what they add.
 * Every method is routed here so that even a wrong method gets a CAS document. SAML 1.1's /samlValidate is one of them.
 */
export function validationRoutes(http: HttpContext): Route[] {
  const extensions = http.validationExtensions;
  // Typed by the paths' own parameters: the extensions' values are theirs to read.
  const extendedQuery = extensions.length === 0 ? casQuery : (casQuery.extend(mergeShapes(extensions.map((extension) => extension.query), 'parameter')) as typeof casQuery);
  const routes = ENDPOINTS.map(({ path, operationId, summary, view, extended, proxyTickets, protocol }) =>
    defineRoute({
      method: 'get',
      path,
      operationId,
      summary,
      everyMethod: true,
      request: { query: extended ? extendedQuery : cas1Query },
      responses: { 200: { description: 'The ticket is valid for the service.', content: view.successContent } },
      errors: VALIDATION_ERRORS,
      failures: validationFailures(http.options, view),
      steps: [renderValidationFailures(http.options, http.events, view), ...http.validationGuards, onlyGet, http.readBody],
      async handle(ctx, { query }) {
        const origin = requestOrigin(ctx);
        const result = await http.core.validateServiceTicket.execute({
          // A JWT ST stands for its stored ST, so it validates once, like any ST (docs/protocol.md §6).
          ticket: query.ticket === undefined ? undefined : await http.ticketIdOf(query.ticket),
          service: query.service,
          renew: query.renew,
          proxyTickets,
          protocol,
          origin,
        });
        let answer: ValidationAnswer = result;
        if (extended) for (const extension of extensions) answer = { ...answer, ...(await extension.answer(ctx, result, query)) };
        ctx.status = 200;
        view.success(ctx, answer);
      },
    }),
  );
  return [...routes, samlValidateRoute(http)];
}

const onlyGet = onlyMethods('GET', 'HEAD');
