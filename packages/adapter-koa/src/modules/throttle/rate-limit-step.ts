import type { RequestRateLimit } from '@tessera/core/modules/throttle';
import type { Context, Next } from 'koa';
import { withErrors, type Step } from '../../routes/route.js';

/**
 * The validation endpoints' request-rate limit per client IP (docs/protocol.md §5), their validation
 * guard, placed after the route's failure renderer: an exhausted client gets RateLimitedError (429
 * with Retry-After) before any ticket is looked at, so it consumes nothing.
 */
export function rateLimitStep(limit: RequestRateLimit): Step {
  const step = async function limitRequestRate(ctx: Context, next: Next): Promise<void> {
    await limit.admit(ctx.ip);
    await next();
  };
  return withErrors(step, { RATE_LIMITED: 'Too many validation requests from this address: wait `Retry-After` seconds.' });
}
