import { throttleModule } from '@tessera/adapter-koa/modules/throttle';
import { AuthenticationThrottle, RequestRateLimit } from '@tessera/core/modules/throttle';
import { key, KEYS } from '../../keys.js';
import type { ModuleRegistration } from '../module.js';

const THROTTLE = key<AuthenticationThrottle>('throttle: authentication');

/**
 * `throttle`: the lock policy in front of every credential-checking route (adapter-koa's throttle step),
 * its state in the storage's throttle store (memory, or Mongo or Redis shared by every node), and told
 * by the Authenticator of each success, which forgets the failures of whom it proved.
 * With `throttle.validation.requestsPerSecond` set, also the validation endpoints' request-rate limit,
 * its buckets in the storage's request-rate store.
 */
export const registerThrottleModule: ModuleRegistration = (binder, config) => {
  const { requestsPerSecond, burst } = config.throttle.validation;
  binder.resolved(THROTTLE, [KEYS.Storage, KEYS.Clock, KEYS.EventSink], ({ ports: { throttle: store } }, clock, events) => new AuthenticationThrottle(store, clock, config.throttle.failure, events));
  binder.resolved(KEYS.AuthenticationListener, [THROTTLE], (throttle) => throttle);
  binder.resolved(KEYS.HttpModule, [THROTTLE, KEYS.Storage, KEYS.Clock], (authentication, { ports: { requestRates: rates } }, clock) =>
    throttleModule({
      authentication,
      ...(requestsPerSecond !== undefined && { validationRate: new RequestRateLimit(rates, clock, { burst, requestsPerSecond }) }),
    }),
  );
};
