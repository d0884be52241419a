import { z } from 'zod';
import type { HttpContext } from '../http-module.js';
import { serverUrl } from '../request/request-url.js';
import { defineRoute, type Route } from '../routes/route.js';
import type { OpenApiDocument } from './openapi-document.js';

const documentSchema = z
  .record(z.string(), z.unknown())
  .meta({ id: 'OpenApiDocument', description: 'An OpenAPI 3.1 document (https://spec.openapis.org/oas/v3.1.1).' });

/**
 * GET /openapi.json, always on: the document of the running server, its one server URL being the
 * base URL, built as `Location` is.
 */
export function openApiRoute(http: HttpContext, document: () => OpenApiDocument): Route {
  return defineRoute({
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI document',
    description: 'Describes the routes and parameters of the enabled modules, for Swagger UI or a client generator.',
    request: {},
    responses: { 200: { description: 'The OpenAPI 3.1 document of this server.', content: { 'application/json': documentSchema } } },
    failures: http.restFailures,
    steps: [],
    handle(ctx) {
      const { openapi, info, ...rest } = document();
      ctx.status = 200;
      ctx.body = { openapi, info, servers: [{ url: serverUrl(ctx, http.options) }], ...rest };
      return Promise.resolve();
    },
  });
}
