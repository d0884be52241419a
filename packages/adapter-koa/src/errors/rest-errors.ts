import { AuthenticationFailedError, MethodNotAllowedError, RouteNotFoundError, ThrottledError, type EventSink } from '@tessera/core';
import type { Context, Middleware, Next } from 'koa';
import type { HttpOptions } from '../http-options.js';
import { statusOf, UNEXPECTED_ERROR_STATUS, type StatusSettings } from './error-status.js';
import { setFailureHeaders } from './failure-headers.js';
import { toTesseraError } from './normalize-error.js';
import { reportServerError } from './report.js';

const SERVER_ERROR_MESSAGE = 'The server could not complete the request';
/** 503: a store or directory is down. Its details (hosts, causes) go to the log only. */
const UNAVAILABLE_MESSAGE = 'A service the server depends on is unavailable; please try again later.';

/**
 * The outermost middleware and the REST routes' renderer: a status from the one table and a
 * text/plain message, or for failed authentication `{"authentication_exceptions":[...]}`. A throttled
 * request gets the same JSON shape with one fixed reason and `Retry-After`: nothing about its credentials.
 * Statuses the router leaves unanswered (404, 405, 501) become core errors first.
 * Server errors are reported, never echoed.
 */
export function restErrors(options: HttpOptions, events: EventSink): Middleware {
  return async function renderRestErrors(ctx: Context, next: Next) {
    try {
      await next();
      refuseUnansweredRequest(ctx);
    } catch (thrown) {
      renderRestError(ctx, thrown, options, events);
    }
  };
}

function refuseUnansweredRequest(ctx: Context): void {
  if (ctx.body !== undefined && ctx.body !== null) return;
  if (ctx.status === 405 || ctx.status === 501) {
    const allowed = ctx.response.get('Allow');
    if (allowed !== '') throw new MethodNotAllowedError(allowed.split(/\s*,\s*/));
  }
  if (ctx.status === 404 || ctx.status === 501) throw new RouteNotFoundError();
}

export function renderRestError(ctx: Context, thrown: unknown, settings: StatusSettings, events: EventSink): void {
  const error = toTesseraError(thrown);
  const status = error ? statusOf(error.code, settings) : UNEXPECTED_ERROR_STATUS;
  if (status >= 500) reportServerError(events, thrown, ctx);
  ctx.status = status;
  setFailureHeaders(ctx, error);
  if (error instanceof AuthenticationFailedError) {
    ctx.body = { authentication_exceptions: error.reasons.length > 0 ? error.reasons : [error.message] };
    return;
  }
  if (error instanceof ThrottledError) {
    ctx.body = { authentication_exceptions: [error.message] };
    return;
  }
  ctx.type = 'text/plain';
  ctx.body = !error || status >= 500 ? (status === 503 ? UNAVAILABLE_MESSAGE : SERVER_ERROR_MESSAGE) : error.message;
}
