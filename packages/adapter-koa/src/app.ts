import Router from '@koa/router';
import Koa from 'koa';
import { restErrors } from './errors/rest-errors.js';
import { reportEscapedError } from './errors/report.js';
import type { AppDependencies, HttpContext } from './http-module.js';
import { extractCredentials } from './request/credentials.js';
import { requestParameters } from './request/parameters.js';
import { readBody } from './request/read-body.js';
import { rateLimitStep } from './throttle/rate-limit-step.js';
import { throttleStep } from './throttle/throttle-step.js';
import { registerValidationRoutes } from './validation/validation-routes.js';

/**
 * The HTTP face of the server: the validation endpoints plus every enabled module's routes under the
 * base path, behind the REST error renderer. Nothing a request does can crash it.
 */
export function createApp(deps: AppDependencies): Koa {
  const { core, options, modules, extractors, events, tokens, throttle, validationRateLimit } = deps;
  // Behind a trusted proxy the client is the address that proxy appended last to X-Forwarded-For;
  // earlier entries come from the client itself and prove nothing.
  const app = new Koa({ proxy: options.trustProxy, maxIpsCount: 1 });
  const http: HttpContext = {
    core,
    options,
    events,
    extractors,
    tokens,
    readBody: readBody(options.maxBodyBytes),
    throttle: (condition) => throttleStep(throttle, options, condition),
    limitRequestRate: rateLimitStep(validationRateLimit),
    parameters: requestParameters,
    credentials: (ctx) => extractCredentials(ctx, extractors),
  };

  const basePath = options.basePath.replace(/\/+$/, '');
  const router = new Router(basePath === '' ? {} : { prefix: basePath });
  registerValidationRoutes(router, http);
  for (const module of modules) module.register(router, http);

  app.use(restErrors(options, events));
  app.use(router.allowedMethods());
  app.use(router.routes());
  app.on('error', (error: unknown, ctx: Koa.Context) => reportEscapedError(events, error, ctx));
  return app;
}
