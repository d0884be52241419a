import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { RequestOrigin } from '@tessera/core';
import type { Context } from 'koa';
import { routePattern } from './route-pattern.js';

const ORIGIN = Symbol('requestOrigin');

/**
 * Where the request comes from, for the events it causes (the audit trail): the client address Koa
 * determined (with `trustProxy` the last X-Forwarded-For entry, else the TCP peer), a random id, and
 * the route pattern, never the path, which may carry ticket ids; and the User-Agent, which
 * access strategies read and no event reports. One per request, however often asked.
 * Handed to the use cases explicitly: AsyncLocalStorage would cost every request ~10% CPU on Node 20.
 */
export function requestOrigin(ctx: Context): RequestOrigin {
  const state = ctx.state as { [ORIGIN]?: RequestOrigin };
  return (state[ORIGIN] ??= originOf(ctx));
}

function originOf(ctx: Context): RequestOrigin {
  const userAgent = ctx.get('User-Agent');
  return { clientAddress: ctx.ip, requestId: randomUUID(), endpoint: `${ctx.method} ${routePattern(ctx) ?? '(no route)'}`, ...(userAgent !== '' && { userAgent }) };
}

const HANDED_OVER = new WeakMap<IncomingMessage, RequestOrigin>();

/**
 * Hands a request over to an app a module mounts (a library's own Koa app, with its own context and
 * its own idea of the client address): that app's events then name the origin this app found, by
 * tessera's trusted-proxy rule. Call it before passing `ctx.req` on.
 */
export function handOverRequestOrigin(ctx: Context): RequestOrigin {
  const origin = requestOrigin(ctx);
  HANDED_OVER.set(ctx.req, origin);
  return origin;
}

/** The origin tessera's app found for a request it handed over to a mounted app; undefined for any other request. */
export function handedOverRequestOrigin(request: IncomingMessage): RequestOrigin | undefined {
  return HANDED_OVER.get(request);
}
