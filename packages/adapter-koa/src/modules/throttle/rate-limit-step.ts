import type { RequestRateLimit } from '@tessera/core/modules/throttle';
import type { Context, Next } from 'koa';
import { withErrors, type Step } from '../../routes/route.js';

/**
 * A request-rate limit per client IP (docs/protocol.md §5.2, §5.3) as a route's first step after its
 * failure renderer: an exhausted client gets RateLimitedError (429 with Retry-After) before its body,
 * ticket or form token is looked at, so it consumes nothing. `documented`: the RATE_LIMITED answer as
 * the route's OpenAPI errors name it.
 */
export function rateLimitStep(limit: RequestRateLimit, documented: string): Step {
  const step = async function limitRequestRate(ctx: Context, next: Next): Promise<void> {
    await limit.admit(ctx.ip);
    await next();
  };
  return withErrors(step, { RATE_LIMITED: documented });
}
