import type Router from '@koa/router';
import type { RouterMiddleware } from '@koa/router';
import { bindInput, inputOf, RouteInputReader } from './route-input.js';
import type { Route } from './route.js';

/**
 * Serves each declared route: its input bound first (parsed through its schemas on first use), then its
 * steps, then its handler. The OpenAPI document is generated from the same declarations.
 */
export function registerRoutes(router: Router, routes: readonly Route[]): void {
  for (const route of routes) {
    const path = koaPath(route);
    const steps: RouterMiddleware[] = [bindRouteInput(route), ...route.steps, handleRoute(route)];
    if (route.everyMethod) router.all(path, ...steps);
    else if (route.method === 'get') router.get(path, ...steps);
    else if (route.method === 'post') router.post(path, ...steps);
    else router.delete(path, ...steps);
  }
}

function bindRouteInput(route: Route): RouterMiddleware {
  const reader = new RouteInputReader(route.request);
  return async function bindRouteInput(ctx, next) {
    bindInput(ctx, reader);
    await next();
  };
}

function handleRoute(route: Route): RouterMiddleware {
  return async function handleRoute(ctx) {
    await route.handle(ctx, inputOf(ctx));
  };
}

/**
 * `/v1/tickets/{tgt}` → `/v1/tickets/:tgt`, refusing a declaration whose path and path parameters
 * disagree, or whose header names are not lower-case (Node lower-cases them: another would never match).
 */
function koaPath(route: Route): string {
  const where = `${route.method.toUpperCase()} ${route.path}`;
  const names = [...route.path.matchAll(/\{([A-Za-z_]\w*)\}/g)].map((match) => match[1]!);
  const declared = Object.keys(route.request.params?.shape ?? {});
  if (names.join() !== declared.join()) throw new Error(`${where} declares path parameters [${declared.join(', ')}]`);
  const headers = Object.keys(route.request.headers?.shape ?? {});
  if (headers.some((name) => name !== name.toLowerCase())) throw new Error(`${where} declares headers [${headers.join(', ')}]; use lower-case names`);
  return route.path.replace(/\{([A-Za-z_]\w*)\}/g, ':$1');
}
