import { throttleModule } from '@tessera/adapter-koa/modules/throttle';
import { AuthenticationThrottle, RequestRateLimit } from '@tessera/core/modules/throttle';
import { KEYS } from '../../keys.js';
import type { ModuleRegistration } from '../module.js';

/**
 * `throttle`: the lock policy in front of every credential-checking route (adapter-koa's throttle step),
 * its state in the storage's throttle store (memory, or Mongo or Redis shared by every node).
 * With `throttle.validation.requestsPerSecond` set, also the validation endpoints' request-rate limit,
 * its buckets in the storage's request-rate store.
 */
export const registerThrottleModule: ModuleRegistration = (binder, config) => {
  const { requestsPerSecond, burst } = config.throttle.validation;
  binder.resolved(KEYS.HttpModule, [KEYS.Storage, KEYS.Clock, KEYS.EventSink], ({ ports: { throttle: store, requestRates: rates } }, clock, events) =>
    throttleModule({
      authentication: new AuthenticationThrottle(store, clock, config.throttle.failure, events),
      ...(requestsPerSecond !== undefined && { validationRate: new RequestRateLimit(rates, clock, { burst, requestsPerSecond }) }),
    }),
  );
};
