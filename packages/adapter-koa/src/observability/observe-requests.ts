import type { Context, Middleware, Next } from 'koa';
import { routePattern } from '../request/route-pattern.js';

/**
 * Told about each request once its answer is decided: `route` is the router's pattern with the base
 * path (`/cas/v1/tickets/:tgt`), undefined when no route matched, never the raw path (paths carry
 * ticket ids); `seconds` runs from the request entering the app to its status being final.
 */
export type RequestObserver = (method: string, route: string | undefined, status: number, seconds: number) => void;

/** The outermost middleware when an observer is given: one clock read on each side, nothing else. */
export function observeRequests(observe: RequestObserver): Middleware {
  return async function observeRequest(ctx: Context, next: Next): Promise<void> {
    const started = performance.now();
    try {
      await next();
    } finally {
      try {
        observe(ctx.method, routePattern(ctx), ctx.status, (performance.now() - started) / 1000);
      } catch {
        // Observing must never change an answer.
      }
    }
  };
}
