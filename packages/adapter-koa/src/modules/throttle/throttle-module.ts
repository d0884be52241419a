import type { AuthenticationThrottle, RequestRateLimit } from '@tessera/core/modules/throttle';
import type { HttpModule } from '../../http-module.js';
import { rateLimitStep } from './rate-limit-step.js';
import { throttleStep } from './throttle-step.js';

export interface ThrottleModuleOptions {
  /** The lock policy in front of every credential check. */
  readonly authentication?: AuthenticationThrottle;
  /** The validation endpoints' request-rate limit per client IP, when one is configured. */
  readonly validationRate?: RequestRateLimit;
}

/**
 * The `throttle` module (docs/protocol.md §5): no route of its own; a guard on every route that checks
 * credentials, and one on the validation endpoints when their request rate is limited.
 */
export function throttleModule({ authentication, validationRate }: ThrottleModuleOptions): HttpModule {
  return {
    name: 'throttle',
    extensions: (http) => ({
      ...(authentication && { credentialGuard: (condition) => throttleStep(authentication, http.options, condition) }),
      ...(validationRate && { validationGuard: rateLimitStep(validationRate) }),
    }),
  };
}
