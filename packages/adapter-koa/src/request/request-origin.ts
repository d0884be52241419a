import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Context, Middleware } from 'koa';

/** The request being served, as records made while serving it (the audit trail) describe it. */
export interface RequestOrigin {
  /** The client address Koa determined: with `trustProxy` the last X-Forwarded-For entry, else the peer. */
  readonly clientAddress: string;
  /** A random id shared by every record of one request. */
  readonly requestId: string;
  readonly method: string;
  /** The route pattern once the router matched one (`/cas/v1/tickets/:tgt`), never the path: paths carry ticket ids. */
  readonly route: string | undefined;
}

interface Scope {
  readonly ctx: Context;
  requestId?: string;
}

const requests = new AsyncLocalStorage<Scope>();

/**
 * The first middleware of the app: runs the rest of the request in a scope that `currentRequest`
 * reads, so core's events can be told apart by request without core knowing HTTP (Apereo CAS's
 * ClientInfoHolder, as AsyncLocalStorage).
 */
export const requestOriginScope: Middleware = function requestOriginScope(ctx, next) {
  return requests.run({ ctx }, next);
};

/** Where the request being served comes from; undefined outside a request (start-up, the CLI). */
export function currentRequest(): RequestOrigin | undefined {
  const scope = requests.getStore();
  if (!scope) return undefined;
  const { ctx } = scope;
  // Drawn on first use: most requests that report nothing never pay for an id.
  scope.requestId ??= randomUUID();
  const route = (ctx as { routerPath?: unknown }).routerPath;
  return { clientAddress: ctx.ip, requestId: scope.requestId, method: ctx.method, route: typeof route === 'string' ? route : undefined };
}
