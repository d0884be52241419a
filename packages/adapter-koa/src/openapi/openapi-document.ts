import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { Route } from '../routes/route.js';
import { routeResponses } from './route-responses.js';

/** The routes one module (or the always-on parts) adds; its name tags them in the document. */
export interface RouteGroup {
  readonly tag: string;
  readonly routes: readonly Route[];
}

/** An OpenAPI 3.1 document, as served (a plain JSON object). */
export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

const FORM = 'application/x-www-form-urlencoded';
const BASIC_AUTH = 'basicAuth';

/**
 * The OpenAPI 3.1 document of exactly the routes the server serves, generated from their declarations:
 * the schemas their input is parsed through and the answers their steps and handlers can give.
 * Paths are relative to the server URL, which includes the base path.
 */
export function openApiDocument(groups: readonly RouteGroup[], version: string): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  const routes = groups.flatMap(({ tag, routes }) => routes.map((route) => ({ tag, route })));
  if (routes.some(({ route }) => route.basicAuth)) {
    registry.registerComponent('securitySchemes', BASIC_AUTH, { type: 'http', scheme: 'basic', description: 'A username and password, checked like a login.' });
  }
  for (const { tag, route } of routes) registry.registerPath(routeConfig(route, tag));
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'tessera',
      version,
      description:
        'CAS REST protocol and ticket validation of this tessera server. Only the enabled modules appear: ' +
        'a module that is off adds no path and no parameter.',
    },
  });
}

function routeConfig(route: Route, tag: string): RouteConfig {
  const { params, query, headers, parameters, body } = route.request;
  const request: NonNullable<RouteConfig['request']> = {
    ...(params && { params }),
    ...(query && { query }),
    ...(headers && Object.keys(headers.shape).length > 0 && { headers }),
  };
  if (parameters) {
    request.body = {
      description: 'As a form or a JSON object of strings; each parameter may also be sent in the query string, where the body wins.',
      content: { [FORM]: { schema: parameters }, 'application/json': { schema: parameters } },
    };
  } else if (body) {
    request.body = { description: body.description, content: Object.fromEntries(Object.entries(body.content).map(([type, schema]) => [type, { schema }])) };
  }
  return {
    method: route.method,
    path: route.path,
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description !== undefined && { description: route.description }),
    tags: [tag],
    ...(route.basicAuth && { security: [{ [BASIC_AUTH]: [] }] }),
    request,
    responses: routeResponses(route),
  };
}
