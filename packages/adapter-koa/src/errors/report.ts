import type { EventSink } from '@tessera/core';
import type { Context } from 'koa';
import { requestOrigin } from '../request/request-origin.js';
import { routePattern } from '../request/route-pattern.js';

/**
 * Reports a server-side failure as `server.error`, with the request's origin so its log line carries
 * the request id. The context names the route pattern, never the request path: paths carry ticket ids.
 */
export function reportServerError(events: EventSink, thrown: unknown, ctx: Context): void {
  const error = thrown instanceof Error ? thrown : new Error(`Non-error thrown: ${typeof thrown}`);
  try {
    events.emit({ type: 'server.error', error, context: `${ctx.method} ${routePattern(ctx) ?? '(no route)'}` }, requestOrigin(ctx));
  } catch {
    // A sink breaking its no-throw contract must not turn an error answer into a crash.
  }
}

const CLIENT_HANG_UPS = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);

/**
 * Koa's `error` event: what escapes every handler, such as a response stream failing mid-flight.
 * A client hanging up is not a server error.
 */
export function reportEscapedError(events: EventSink, thrown: unknown, ctx: Context): void {
  const code = typeof thrown === 'object' && thrown !== null && 'code' in thrown ? thrown.code : undefined;
  if (typeof code === 'string' && CLIENT_HANG_UPS.has(code)) return;
  reportServerError(events, thrown, ctx);
}
