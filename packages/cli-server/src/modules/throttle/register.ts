import { AuthenticationThrottle, RequestRateLimit } from '@tessera/core';
import { KEYS } from '../../keys.js';
import type { ModuleRegistration } from '../module.js';

/**
 * `throttle`: the lock policy in front of every credential-checking route (adapter-koa's throttle step),
 * its state in the storage's throttle store (memory, or Mongo or Redis shared by every node).
 * With `throttle.validation.requestsPerSecond` set, also the validation endpoints' request-rate limit,
 * its buckets in the storage's request-rate store.
 */
export const registerThrottleModule: ModuleRegistration = (binder, config) => {
  binder.resolved(
    KEYS.AuthenticationThrottle,
    [KEYS.ThrottleStore, KEYS.Clock, KEYS.EventSink],
    (store, clock, events) => new AuthenticationThrottle(store, clock, config.throttle.failure, events),
  );
  const { requestsPerSecond, burst } = config.throttle.validation;
  if (requestsPerSecond === undefined) return;
  binder.resolved(
    KEYS.RequestRateLimit,
    [KEYS.RequestRateStore, KEYS.Clock],
    (store, clock) => new RequestRateLimit(store, clock, { burst, requestsPerSecond }),
  );
};
