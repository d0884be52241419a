import type { RequestRateLimit } from '@tessera/core';
import type { Context, Next } from 'koa';
import type { Step } from '../http-module.js';

/**
 * The validation endpoints' request-rate limit per client IP (protocol.md §5), placed after the
 * route's failure renderer: an exhausted client gets RateLimitedError (429 with Retry-After) before
 * any ticket is looked at, so it consumes nothing. Without a configured limit it only passes requests on.
 */
export function rateLimitStep(limit: RequestRateLimit | undefined): Step {
  return async function limitRequestRate(ctx: Context, next: Next): Promise<void> {
    if (limit) await limit.admit(ctx.ip);
    await next();
  };
}
