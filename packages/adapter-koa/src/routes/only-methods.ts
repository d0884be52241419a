import { MethodNotAllowedError } from '@tessera/core';
import { withErrors, type Step } from './route.js';

/**
 * The step of a route that takes every method (so a wrong one still gets the route's own format):
 * any method but `allowed` is refused (405, with `Allow`).
 */
export function onlyMethods(...allowed: readonly string[]): Step {
  return withErrors(
    async function onlyMethods(ctx, next) {
      if (!allowed.includes(ctx.method)) throw new MethodNotAllowedError(allowed);
      await next();
    },
    { METHOD_NOT_ALLOWED: `Only ${allowed.join(' and ')}.` },
  );
}
