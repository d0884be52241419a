import { UnsupportedMediaTypeError, type RegisterService } from '@tessera/core';
import type { HttpModule, Step } from '../http-module.js';
import { registerFromForm, registerFromJson } from './register-routes.js';

export interface ServicesModuleOptions {
  readonly registerService: RegisterService;
  /** POST /v1/services (CAS 6+: HTTP Basic and a JSON definition). */
  readonly current: boolean;
  /** POST /v1/services/add/{tgt} (CAS 4.2–5.x: a TGT and form fields). */
  readonly earlier: boolean;
}

/**
 * The `services` module (protocol.md §3): register services over REST. A variant that is off adds
 * no route, so it answers 404. Both are throttled like every credential-checking route (protocol.md §5).
 */
export function servicesModule(options: ServicesModuleOptions): HttpModule {
  return {
    name: 'services',
    register(router, http) {
      if (options.current) router.post('/v1/services', requireJsonBody, http.readBody, http.throttle(), registerFromJson(options.registerService));
      if (options.earlier) router.post('/v1/services/add/:tgt', http.readBody, http.throttle(), registerFromForm(http, options.registerService));
    },
  };
}

/**
 * The current variant reads only JSON (CAS's `consumes`), checked before anything else: 415. The
 * declared type is what counts: an empty JSON body is a bad definition (400), not a wrong type.
 */
const requireJsonBody: Step = async function requireJsonBody(ctx, next) {
  if (ctx.request.type !== 'application/json') throw new UnsupportedMediaTypeError('Send the service definition as Content-Type: application/json');
  await next();
};
