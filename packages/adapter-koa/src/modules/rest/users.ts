import type { AuthenticationResult } from '@tessera/core';
import { z } from 'zod';
import type { HttpContext } from '../../http-module.js';
import { requestOrigin } from '../../request/request-origin.js';
import { defineRoute, type Route } from '../../routes/route.js';
import { CREDENTIAL_ERRORS, credentialRequest, SERVICE, STORE_ERRORS } from '../../request/credential-request.js';

const attributes = z.record(z.string(), z.array(z.string()).readonly());

const authenticationResultSchema = z
  .object({
    authentication: z.object({
      principal: z.object({ id: z.string(), attributes }),
      authenticationDate: z.string().meta({ format: 'date-time' }),
      credentials: z.array(z.object({ id: z.string(), type: z.string() })),
      successes: z.record(z.string(), z.unknown()).meta({ description: 'By handler name: what each accepted.' }),
      attributes: z.record(z.string(), z.unknown()),
    }),
    service: z.string().nullable(),
  })
  .meta({ id: 'AuthenticationResult', description: "CAS's AuthenticationResult, without Jackson's type wrappers." });

/** POST /v1/users: authenticate (and check `service` when given) without creating a ticket. */
export function authenticateUserRoute(http: HttpContext): Route {
  return defineRoute({
    method: 'post',
    path: '/v1/users',
    operationId: 'authenticateUser',
    summary: 'Check credentials without creating a ticket',
    request: credentialRequest(http, { parameters: { service: SERVICE } }),
    responses: { 200: { description: 'Authenticated.', content: { 'application/json': authenticationResultSchema } } },
    errors: { ...CREDENTIAL_ERRORS, ...STORE_ERRORS },
    failures: http.restFailures,
    steps: [http.readBody, ...http.credentialGuards()],
    async handle(ctx, { parameters: { service } }) {
      const result = await http.core.authenticateUser.execute({ credentials: http.credentials(ctx), ...(service !== undefined && { service }), origin: requestOrigin(ctx) });
      ctx.status = 200;
      ctx.body = authenticationResultJson(result);
    },
  });
}

/** The shape of docs/protocol.md §3 (CAS's AuthenticationResult, without Jackson's type wrappers). */
function authenticationResultJson({ authentication, service }: AuthenticationResult): z.input<typeof authenticationResultSchema> {
  return {
    authentication: {
      principal: { id: authentication.principal.id, attributes: authentication.principal.attributes },
      authenticationDate: new Date(authentication.authenticatedAt).toISOString(),
      credentials: authentication.credentials.map(({ id, type }) => ({ id, type })),
      successes: authentication.successes,
      attributes: authentication.attributes,
    },
    service,
  };
}
