import type { Authentication } from '../domain/authentication/authentication.js';
import type { RequestOrigin } from '../domain/events.js';

/**
 * Told of each successful authentication by the Authenticator, before it answers: the throttle module
 * forgets the failures of whom the credentials proved. Awaited, so the authentication is not reported
 * a success before the listener has acted; an error fails it (a store that cannot answer: 503).
 */
export interface AuthenticationListener {
  /** Every credential of the request was accepted and they name one principal; `origin`: the request. */
  authenticated(authentication: Authentication, origin?: RequestOrigin): Promise<void>;
}
