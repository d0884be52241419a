import { throttleModule } from '@tessera/adapter-koa/modules/throttle';
import { AuthenticationThrottle, RequestRateLimit } from '@tessera/core/modules/throttle';
import { key, KEYS } from '../../keys.js';
import type { ModuleRegistration } from '../module.js';
import type { throttleSections } from './config.js';

const THROTTLE = key<AuthenticationThrottle>('throttle: authentication');

/** The login form's buckets beside the validation limit's (bare addresses) in the one request-rate store. */
const LOGIN_FORM_SCOPE = 'login-form';

/**
 * `throttle`: the lock policy in front of every credential-checking route (adapter-koa's throttle step),
 * its state in the storage's throttle store (memory, or Mongo or Redis shared by every node), and told
 * by the Authenticator of each success, which forgets the failures of whom it proved. The login form's
 * request-rate limit (`throttle.loginForm`), and with `throttle.validation.requestsPerSecond` set the
 * validation endpoints', their buckets in the storage's request-rate store.
 */
export const registerThrottleModule: ModuleRegistration<typeof throttleSections> = (binder, { throttle }) => {
  const { validation, loginForm } = throttle;
  binder.resolved(THROTTLE, [KEYS.Storage, KEYS.Clock, KEYS.EventSink], ({ ports: { throttle: store } }, clock, events) => new AuthenticationThrottle(store, clock, throttle.failure, events));
  binder.resolved(KEYS.AuthenticationListener, [THROTTLE], (throttle) => throttle);
  binder.resolved(KEYS.HttpModule, [THROTTLE, KEYS.Storage, KEYS.Clock], (authentication, { ports: { requestRates: rates } }, clock) => {
    const { requestsPerSecond, burst } = validation;
    return throttleModule({
      authentication,
      ...(requestsPerSecond !== undefined && { validationRate: new RequestRateLimit(rates, clock, { burst, requestsPerSecond }) }),
      formRate: new RequestRateLimit(rates, clock, loginForm, LOGIN_FORM_SCOPE),
    });
  });
};
