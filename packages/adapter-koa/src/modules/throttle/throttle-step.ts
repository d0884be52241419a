import type { AuthenticationThrottle, ThrottleSubject } from '@tessera/core/modules/throttle';
import type { Context, Next } from 'koa';
import type { RequestCondition } from '../../http-module.js';
import type { HttpOptions } from '../../http-options.js';
import { statusOf } from '../../errors/error-status.js';
import { toTesseraError } from '../../errors/normalize-error.js';
import { basicCredentials } from '../../request/basic-credentials.js';
import { inputOf } from '../../routes/route-input.js';
import { withErrors, type Step } from '../../routes/route.js';
import { requestOrigin } from '../../request/request-origin.js';

/**
 * The throttle module's credential guard (docs/protocol.md §5), placed after the body is read and before
 * the handler checks credentials: it admits the attempt first (one more in flight), and a key locked, or
 * failed with its failures plus attempts in flight at `threshold`, or with `concurrentChecks` in flight,
 * is refused (ThrottledError → 423) before any password hash is computed, so guesses sent at once cannot
 * all be checked while a user's own logins sent at once are. Afterwards a 401 makes the attempt a
 * failure; any other answer takes it out of flight unless its success settled it. A success forgets a key only through
 * the Authenticator, which knows whose credentials it accepted: the username a request names may not be
 * whom it logged in (a certificate's owner beside another user's name).
 * Requests not meeting `condition` pass untouched.
 */
export function throttleStep(throttle: AuthenticationThrottle, options: HttpOptions, condition?: RequestCondition): Step {
  const step = async function throttleAuthentication(ctx: Context, next: Next): Promise<void> {
    if (condition && !condition(ctx)) {
      await next();
      return;
    }
    const subject: ThrottleSubject = { origin: requestOrigin(ctx), username: usernameOf(ctx) };
    const attempt = await throttle.admit(subject);
    try {
      await next();
    } catch (thrown) {
      await (statusOfThrown(thrown, options) === 401 ? attempt.failed() : attempt.answered());
      throw thrown;
    }
    // CAS counts 401 answers only.
    await (ctx.status === 401 ? attempt.failed() : attempt.answered());
  };
  return withErrors(step, { THROTTLED: 'Too many failed logins from this address for this username: locked for `Retry-After` seconds.' });
}

/** As the one status table answers it in the current revision: a failed authentication is a 401, whichever revision the route speaks. */
function statusOfThrown(thrown: unknown, options: HttpOptions): number {
  const error = toTesseraError(thrown);
  return error ? statusOf(error.code, options) : 500;
}

/** The username parameter of the route's input, else of HTTP Basic credentials (the services routes). */
function usernameOf(ctx: Context): string | undefined {
  try {
    const username = inputOf(ctx).parameters['username'];
    if (typeof username === 'string' && username.trim()) return username;
  } catch {
    // Input the route refuses names no username; the route answers 400 once the lock is checked.
  }
  return basicCredentials(ctx)[0]?.username;
}
