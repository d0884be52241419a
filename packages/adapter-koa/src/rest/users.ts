import type { AuthenticationResult } from '@tessera/core';
import type { RouterContext } from '@koa/router';
import type { HttpContext } from '../http-module.js';
import { optionalParameter } from '../request/parameters.js';
import { requestOrigin } from '../request/request-origin.js';

/** POST /v1/users: authenticate (and check `service` when given) without creating a ticket. */
export function authenticateUser(http: HttpContext) {
  return async function authenticateUser(ctx: RouterContext): Promise<void> {
    const credentials = http.credentials(ctx);
    const service = optionalParameter(http.parameters(ctx), 'service');
    const result = await http.core.authenticateUser.execute({ credentials, ...(service !== undefined && { service }), origin: requestOrigin(ctx) });
    ctx.status = 200;
    ctx.body = authenticationResultJson(result);
  };
}

/** The shape of protocol.md §3 (CAS's AuthenticationResult, without Jackson's type wrappers). */
function authenticationResultJson({ authentication, service }: AuthenticationResult) {
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
