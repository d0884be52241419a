import { toCasServiceJson, type RegisterService } from '@tessera/core';
import type { RouterContext } from '@koa/router';
import type { HttpContext } from '../http-module.js';
import { basicCredentials } from '../request/basic-credentials.js';
import { requestOrigin } from '../request/request-origin.js';

/** POST /v1/services: 200 with the stored definition in CAS JSON, its assigned id included. */
export function registerFromJson(register: RegisterService) {
  return async function registerFromJson(ctx: RouterContext): Promise<void> {
    const saved = await register.withCredentials(basicCredentials(ctx), ctx.request.body, requestOrigin(ctx));
    ctx.status = 200;
    ctx.body = toCasServiceJson(saved);
  };
}

/** POST /v1/services/add/{tgt}: 200 text/plain with the new service's numeric id. */
export function registerFromForm(http: HttpContext, register: RegisterService) {
  return async function registerFromForm(ctx: RouterContext): Promise<void> {
    const parameters = http.parameters(ctx);
    const saved = await register.withTicket(ctx.params.tgt ?? '', {
      serviceId: parameters.get('serviceId'),
      name: parameters.get('name'),
      description: parameters.get('description'),
      evaluationOrder: parameters.get('evaluationOrder'),
      enabled: parameters.get('enabled'),
      ssoEnabled: parameters.get('ssoEnabled'),
    }, requestOrigin(ctx));
    ctx.status = 200;
    ctx.type = 'text/plain';
    ctx.body = String(saved.id);
  };
}
