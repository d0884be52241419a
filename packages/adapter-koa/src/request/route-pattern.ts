import type { Context } from 'koa';

/**
 * The pattern of the route that answered, with the base path, e.g. `/cas/v1/tickets/:tgt`; undefined
 * when no route matched. Never the request path: paths carry ticket ids.
 */
export function routePattern(ctx: Context): string | undefined {
  const route = (ctx as { routerPath?: unknown }).routerPath;
  return typeof route === 'string' ? route : undefined;
}
