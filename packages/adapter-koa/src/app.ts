import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventSink } from '@tessera/core';
import Router from '@koa/router';
import Koa from 'koa';
import { restErrors } from './errors/rest-errors.js';
import { restFailures } from './errors/rest-failures.js';
import { reportEscapedError } from './errors/report.js';
import type { AppDependencies, DirectLane, HttpBasics, HttpContext, HttpExtensions } from './http-module.js';
import { observeRequests, type RequestObserver } from './observability/observe-requests.js';
import { openApiDocument, type OpenApiDocument, type RouteGroup } from './openapi/openapi-document.js';
import { openApiRoute } from './openapi/openapi-route.js';
import type { HttpOptions } from './http-options.js';
import { extractCredentials, mergeShapes } from './request/credentials.js';
import { readBody } from './request/read-body.js';
import { refuseUnservedHosts } from './request/request-url.js';
import { registerRoutes } from './routes/register-routes.js';
import { inputOf } from './routes/route-input.js';
import { validationRoutes } from './validation/validation-routes.js';

/**
 * The HTTP face of the server: the validation endpoints, every enabled module's routes and the
 * OpenAPI document of them all under the base path, behind the REST error renderer. Nothing a request does can crash it.
 */
export function createApp(deps: AppDependencies): Koa {
  const { core, modules, extractors, events } = deps;
  // The one place the base path is normalised: everything below reads it from `options` as it is.
  const options: HttpOptions = { ...deps.options, basePath: withoutTrailingSlashes(deps.options.basePath) };
  // Behind a trusted proxy the client is the address that proxy appended last to X-Forwarded-For;
  // earlier entries come from the client itself and prove nothing.
  const app = new Koa({ proxy: options.trustProxy, maxIpsCount: 1 });
  const basics: HttpBasics = {
    core,
    options,
    events,
    credentialSchemas: {
      parameters: mergeShapes(
        extractors.map((extractor) => extractor.parameters),
        'parameter',
      ),
      headers: mergeShapes(
        extractors.map((extractor) => extractor.headers),
        'header',
      ),
    },
    readBody: readBody(options.maxBodyBytes),
    credentials: (ctx) => extractCredentials({ ...inputOf(ctx), socket: ctx.req.socket }, extractors),
    restFailures: restFailures(options),
  };
  const http: HttpContext = {
    ...basics,
    ...extensionPoints(modules.map((module) => module.extensions?.(basics) ?? {})),
  };

  let document: OpenApiDocument | undefined;
  const groups: RouteGroup[] = [{ tag: 'validation', routes: validationRoutes(http) }, ...modules.map((module) => ({ tag: module.name, routes: module.routes?.(http) ?? [] }))];
  groups.push({ tag: 'openapi', routes: [openApiRoute(http, () => (document ??= openApiDocument(groups, deps.version ?? 'unknown')))] });

  const router = new Router(options.basePath === '' ? {} : { prefix: options.basePath });
  registerRoutes(
    router,
    groups.flatMap((group) => group.routes),
  );

  if (deps.observeRequest) app.use(observeRequests(deps.observeRequest));
  app.use(restErrors(options, events));
  app.use(refuseUnservedHosts(options));
  // A mounted app serves its own paths without the router matching every route first (its token and
  // userinfo requests are the hot ones); it hands any other request, a route's among them, on.
  for (const module of modules) {
    const mounted = module.mounted?.(http);
    if (mounted) app.use(mounted);
  }
  app.use(router.allowedMethods());
  app.use(router.routes());
  app.on('error', (error: unknown, ctx: Koa.Context) => reportEscapedError(events, error, ctx));
  const lanes = modules.flatMap((module) => module.directLane?.(http) ?? []);
  if (lanes.length > 0) {
    const appListener = app.callback.bind(app);
    app.callback = () => withDirectLanes(lanes, appListener(), deps.observeRequest, events);
  }
  return app;
}

/** What Koa's `callback()` returns: the listener a server is given. */
type AppListener = ReturnType<Koa['callback']>;

/**
 * The app's listener with the modules' direct lanes in front: a request a lane takes is answered by it
 * alone (a second context of tessera's in front of a library's own app costs its hot paths a tenth of
 * their CPU), and timed for the request metrics as the app times its own; any other goes to the app.
 */
function withDirectLanes(lanes: readonly DirectLane[], appListener: AppListener, observe: RequestObserver | undefined, events: EventSink): AppListener {
  return (served, answer) => {
    // tessera listens over HTTP/1.1 (node:http, node:https) only.
    const request = served as IncomingMessage;
    const response = answer as ServerResponse;
    const started = performance.now();
    for (const lane of lanes) {
      const answered = lane.serve(request, response);
      if (answered === undefined) continue;
      return answered.then(
        () => observeLaneRequest(observe, request, response, started, lane.settled(request)),
        (thrown: unknown) => {
          lane.settled(request);
          answerEscapedLaneError(events, thrown, request, response);
          observeLaneRequest(observe, request, response, started, undefined);
        },
      );
    }
    return appListener(request, response);
  };
}

/** Times a request a lane answered for the request metrics, under the route that answered it (none when the lane broke). */
function observeLaneRequest(observe: RequestObserver | undefined, request: IncomingMessage, response: ServerResponse, started: number, route: string | undefined): void {
  if (observe === undefined) return;
  try {
    observe(request.method ?? 'GET', route, response.statusCode, (performance.now() - started) / 1000);
  } catch {
    // Observing must never change an answer.
  }
}

/** A lane that broke its promise never to reject: reported as a server error, answered 500 when nothing was sent yet. */
function answerEscapedLaneError(events: EventSink, thrown: unknown, request: IncomingMessage, response: ServerResponse): void {
  try {
    events.emit({ type: 'server.error', error: thrown instanceof Error ? thrown : new Error(`Non-error thrown: ${typeof thrown}`), context: `${request.method ?? 'GET'} (direct lane)` });
  } catch {
    // A sink breaking its no-throw contract must not turn an error answer into a crash.
  }
  if (response.headersSent) response.destroy();
  else response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Internal Server Error');
}

/** Each extension point with what every module contributed to it, in module order. */
function extensionPoints(contributions: readonly HttpExtensions[]): Omit<HttpContext, keyof HttpBasics> {
  const ticketEncodings = contributions.flatMap((contribution) => contribution.ticketEncoding ?? []);
  return {
    credentialGuards: (condition) => contributions.flatMap((contribution) => contribution.credentialGuard?.(condition) ?? []),
    validationGuards: contributions.flatMap((contribution) => contribution.validationGuard ?? []),
    formGuards: contributions.flatMap((contribution) => contribution.formGuard ?? []),
    authorizationGuards: contributions.flatMap((contribution) => contribution.authorizationGuard ?? []),
    clientAuthenticationGuards: contributions.flatMap((contribution) => contribution.clientAuthenticationGuard ?? []),
    ticketEncodings,
    async ticketIdOf(idOrEncoded) {
      let id = idOrEncoded;
      for (const encoding of ticketEncodings) id = await encoding.ticketId(id);
      return id;
    },
    validationExtensions: contributions.flatMap((contribution) => contribution.validation ?? []),
    loginPrompts: contributions.flatMap((contribution) => contribution.loginPrompts ?? []),
    afterLogout: contributions.flatMap((contribution) => contribution.afterLogout ?? []),
  };
}

/** `/cas/` and `/cas` are one base path; `/` is the root, `''`. */
function withoutTrailingSlashes(path: string): string {
  return path.replace(/\/+$/, '');
}
