import type { AuthenticationThrottle, ClientAuthenticationThrottle, RequestRateLimit } from '@tessera/core/modules/throttle';
import type { HttpModule } from '../../http-module.js';
import { rateLimitStep } from './rate-limit-step.js';
import { throttleStep } from './throttle-step.js';

export interface ThrottleModuleOptions {
  /** The lock policy in front of every credential check. */
  readonly authentication?: AuthenticationThrottle;
  /** The validation endpoints' request-rate limit per client IP, when one is configured. */
  readonly validationRate?: RequestRateLimit;
  /** The login form's request-rate limit per client IP (POST /login). */
  readonly formRate?: RequestRateLimit;
  /** The request-rate limit per client IP of a mounted provider's authorization requests. */
  readonly authorizationRate?: RequestRateLimit;
  /** The lock policy in front of a mounted provider's client authentication (its token endpoints). */
  readonly clientAuthentication?: ClientAuthenticationThrottle;
}

/**
 * The `throttle` module (docs/protocol.md §5): no route of its own; a guard on every route that checks
 * credentials, one on the validation endpoints when their request rate is limited, one on the
 * routes browsers post forms to, one on the authorization requests of a mounted provider, and one on
 * the client authentication of its token endpoints.
 */
export function throttleModule({ authentication, validationRate, formRate, authorizationRate, clientAuthentication }: ThrottleModuleOptions): HttpModule {
  return {
    name: 'throttle',
    extensions: (http) => ({
      ...(authentication && { credentialGuard: (condition) => throttleStep(authentication, http.options, condition) }),
      ...(validationRate && { validationGuard: rateLimitStep(validationRate, 'Too many validation requests from this address: wait `Retry-After` seconds.') }),
      ...(formRate && { formGuard: rateLimitStep(formRate, 'Too many form posts from this address: the form again; wait `Retry-After` seconds.') }),
      ...(authorizationRate && { authorizationGuard: rateLimitStep(authorizationRate, 'Too many authorization requests from this address: wait `Retry-After` seconds.') }),
      ...(clientAuthentication && { clientAuthenticationGuard: clientAuthentication }),
    }),
  };
}
