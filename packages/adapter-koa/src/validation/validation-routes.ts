import type Router from '@koa/router';
import { MethodNotAllowedError } from '@tessera/core';
import type { Context, Next } from 'koa';
import type { HttpContext } from '../http-module.js';
import { isTruthy } from '../request/flags.js';
import { queryParameters } from '../request/parameters.js';
import { requestOrigin } from '../request/request-origin.js';
import { ticketIdOf } from '../tokens/jwt-requests.js';
import { registerSamlValidateRoute } from './saml-validate.js';
import { renderValidationFailures } from './validation-failures.js';
import { cas1View, casView, type ValidationView } from './validation-views.js';

const VIEWS: Readonly<Record<string, ValidationView>> = {
  '/validate': cas1View,
  '/serviceValidate': casView,
  '/proxyValidate': casView,
  '/p3/serviceValidate': casView,
  '/p3/proxyValidate': casView,
};

/**
 * The CAS validation endpoints, always on. CAS 2 paths answer like CAS 3 (attributes included) and the
 * proxy paths accept plain STs. Every method is routed here so that even a wrong method gets a CAS document.
 * SAML 1.1's /samlValidate is one of them.
 */
export function registerValidationRoutes(router: Router, http: HttpContext): void {
  for (const [path, view] of Object.entries(VIEWS)) {
    router.all(path, renderValidationFailures(http.options, http.events, view), http.limitRequestRate, onlyGet, http.readBody, validateServiceTicket(http, view));
  }
  registerSamlValidateRoute(router, http);
}

async function onlyGet(ctx: Context, next: Next): Promise<void> {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw new MethodNotAllowedError(['GET', 'HEAD']);
  await next();
}

function validateServiceTicket(http: HttpContext, view: ValidationView) {
  return async function validateServiceTicket(ctx: Context): Promise<void> {
    const query = queryParameters(ctx);
    const ticket = query.get('ticket');
    const result = await http.core.validateServiceTicket.execute({
      // A JWT ST stands for its stored ST, so it validates once, like any ST (protocol.md §6).
      ticket: ticket === undefined ? undefined : await ticketIdOf(http, ticket),
      service: query.get('service'),
      renew: isTruthy(query.get('renew')),
      origin: requestOrigin(ctx),
    });
    ctx.status = 200;
    view.success(ctx, result);
  };
}
