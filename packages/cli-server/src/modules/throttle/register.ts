import { throttleModule } from '@tessera/adapter-koa/modules/throttle';
import { AuthenticationThrottle, ClientAuthenticationThrottle, FailureLocks, RequestRateLimit } from '@tessera/core/modules/throttle';
import { key, KEYS } from '../../keys.js';
import { openModuleStore } from '../../storage/module-stores.js';
import type { ModuleRegistration } from '../module.js';
import type { throttleSections } from './config.js';
import { throttleStores, type ThrottleStores } from './stores/index.js';

const STORES = key<ThrottleStores>('throttle: stores');
const LOCKS = key<FailureLocks>('throttle: failure locks');
const THROTTLE = key<AuthenticationThrottle>('throttle: authentication');

/** The login form's buckets beside the validation limit's (bare addresses) in the one request-rate store. */
const LOGIN_FORM_SCOPE = 'login-form';
/** The buckets of a mounted provider's authorization requests, in the same store. */
const AUTHORIZATION_SCOPE = 'authorization';

/**
 * `throttle`: the lock policy in front of every credential-checking route (adapter-koa's throttle step),
 * its state in the module's own failure store (stores/: memory, or Mongo or Redis shared by every node),
 * and told by the Authenticator of each success, which forgets the failures of whom it proved. The
 * login form's request-rate limit (`throttle.loginForm`), that of a mounted provider's authorization
 * requests (`throttle.authorization`), the same lock policy on the client authentication of its token
 * endpoints (keys of their own, `client <address> <client_id>`), and with `throttle.validation.requestsPerSecond` set the
 * validation endpoints', their buckets in the module's request-rate store.
 */
export const registerThrottleModule: ModuleRegistration<typeof throttleSections> = (binder, { throttle }, { credentialKinds }) => {
  const usernameKinds = credentialKinds.filter((kind) => kind.provesUsername).map((kind) => kind.type);
  const { validation, loginForm, authorization } = throttle;
  // A resource: on Mongo the stores create their indexes, which `open()` awaits; the storage closes the connection.
  binder.resource(STORES, [KEYS.StorageConnection], (connection) => openModuleStore(connection, throttleStores(throttle)), () => undefined);
  // One lock policy on the one failure store: logins' keys and clients' keys never collide (clientThrottleKey).
  binder.resolved(LOCKS, [STORES, KEYS.Clock], ({ failures }, clock) => new FailureLocks(failures, clock, throttle.failure));
  binder.resolved(THROTTLE, [LOCKS, KEYS.EventSink], (locks, events) => new AuthenticationThrottle(locks, events, usernameKinds));
  binder.resolved(KEYS.AuthenticationListener, [THROTTLE], (throttle) => throttle);
  binder.resolved(KEYS.HttpModule, [THROTTLE, LOCKS, STORES, KEYS.Clock, KEYS.EventSink], (authentication, locks, { requestRates: rates }, clock, events) => {
    const { requestsPerSecond, burst } = validation;
    return throttleModule({
      authentication,
      ...(requestsPerSecond !== undefined && { validationRate: new RequestRateLimit(rates, clock, { burst, requestsPerSecond }) }),
      formRate: new RequestRateLimit(rates, clock, loginForm, LOGIN_FORM_SCOPE),
      authorizationRate: new RequestRateLimit(rates, clock, authorization, AUTHORIZATION_SCOPE),
      clientAuthentication: new ClientAuthenticationThrottle(locks, events),
    });
  });
};
