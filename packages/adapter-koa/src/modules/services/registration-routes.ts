import { UnsupportedMediaTypeError } from '@tessera/core';
import { type RegisterService } from '@tessera/core/modules/services';
import { z } from 'zod';
import { plainTextSchema } from '../../errors/rest-failures.js';
import type { HttpContext } from '../../http-module.js';
import { basicCredentials } from '../../request/basic-credentials.js';
import { requestOrigin } from '../../request/request-origin.js';
import { parameterObject, text } from '../../request/parameter-schemas.js';
import { STORE_ERRORS } from '../../request/credential-request.js';
import { defineRoute, withErrors, type Route } from '../../routes/route.js';
import type { ServiceCodec } from '../../services/codecs/service-codec.js';
import { serviceDefinitionSchema } from './service-definition.js';

const NOT_ALLOWED = 'The user lacks the attribute `registration.requiredAttribute` names.';

/**
 * POST /v1/services (CAS 6+): HTTP Basic credentials and a JSON definition of one of `acceptedTypes`;
 * 200 with the stored definition, its id included.
 */
export function registerFromJsonRoute(http: HttpContext, register: RegisterService, codec: ServiceCodec, acceptedTypes: readonly string[]): Route {
  const definition = serviceDefinitionSchema(codec.moduleKeys);
  return defineRoute({
    method: 'post',
    path: '/v1/services',
    operationId: 'registerService',
    summary: 'Register a service (CAS 6+)',
    description: 'Authenticated like a login, then authorized by `registration.requiredAttribute`.',
    basicAuth: true,
    request: { body: { description: 'The service definition.', content: { 'application/json': definition } } },
    responses: { 200: { description: 'Saved; the stored definition with its id.', content: { 'application/json': definition } } },
    errors: { UNAUTHENTICATED: 'HTTP Basic credentials are missing or refused.', FORBIDDEN: NOT_ALLOWED, INVALID_SERVICE_DEFINITION: 'The definition is invalid, or has a key tessera does not read; one line per problem, each naming the key.', ...STORE_ERRORS },
    failures: http.restFailures,
    steps: [requireJsonBody, http.readBody, ...http.credentialGuards()],
    async handle(ctx) {
      const saved = await register.withCredentials(basicCredentials(ctx), () => codec.parse(ctx.request.body, { acceptedTypes }), requestOrigin(ctx));
      ctx.status = 200;
      ctx.body = codec.render(saved);
    },
  });
}

/** POST /v1/services/add/{tgt} (CAS 4.2–5.x): a TGT and form fields; 200 text/plain with the new service's numeric id. */
export function registerFromFormRoute(http: HttpContext, register: RegisterService, codec: ServiceCodec): Route {
  return defineRoute({
    method: 'post',
    path: '/v1/services/add/{tgt}',
    operationId: 'addService',
    summary: 'Register a service with a TGT (CAS 4.2–5.x)',
    description: "The TGT's user must hold the attribute `registration.requiredAttribute` names.",
    request: {
      // A plain TGT id: this earlier variant never reads a JWT (docs/protocol.md §6).
      params: z.object({ tgt: z.string().meta({ description: 'A TGT id (not its JWT).' }) }),
      parameters: parameterObject(
        {
          serviceId: text('Required: a regular expression matched against the whole service URL.'),
          name: text('Required.'),
          description: text('Required.'),
          evaluationOrder: text('An integer; the service is matched last when absent.'),
          enabled: text('true/yes/on/1 or false/no/off/0; default true.'),
          ssoEnabled: text('true/yes/on/1 or false/no/off/0; default true.'),
        },
        'Any other parameter is refused (400, naming it): a field this form does not have would otherwise be lost.',
      ),
    },
    responses: { 200: { description: 'Saved.', content: { 'text/plain': plainTextSchema } } },
    errors: { INVALID_SERVICE_DEFINITION: 'A field is missing, invalid or unknown; the message names it.', TICKET_NOT_FOUND: 'The TGT is unknown or expired.', FORBIDDEN: NOT_ALLOWED, ...STORE_ERRORS },
    failures: http.restFailures,
    steps: [http.readBody, ...http.credentialGuards()],
    async handle(ctx, { params, sentParameters }) {
      const saved = await register.withTicket(params.tgt, () => codec.parseLegacyForm(sentParameters), requestOrigin(ctx));
      ctx.status = 200;
      ctx.type = 'text/plain';
      ctx.body = String(saved.id);
    },
  });
}

/**
 * The current variant reads only JSON (CAS's `consumes`), checked before anything else: 415. The
 * declared type is what counts: an empty JSON body is a bad definition (400), not a wrong type.
 */
const requireJsonBody = withErrors(
  async function requireJsonBody(ctx, next) {
    if (ctx.request.type !== 'application/json') throw new UnsupportedMediaTypeError('Send the service definition as Content-Type: application/json');
    await next();
  },
  { UNSUPPORTED_MEDIA_TYPE: 'The body is not `application/json`.' },
);
