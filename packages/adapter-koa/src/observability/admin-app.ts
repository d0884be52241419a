import { MethodNotAllowedError, type EventSink, type ReadinessReport } from '@tessera/core';
import Koa, { type Context } from 'koa';
import { setFailureHeaders } from '../errors/failure-headers.js';
import { reportEscapedError } from '../errors/report.js';

/** A metrics registry as the admin endpoints serve it, e.g. prom-client's Registry. */
export interface MetricsExposition {
  /** Content type of the exposition format, e.g. Prometheus text `text/plain; version=0.0.4`. */
  readonly contentType: string;
  render(): Promise<string>;
}

export interface AdminDependencies {
  /** Answers with a report; never rejects (core's ReadinessProbe). */
  readonly readiness: { probe(): Promise<ReadinessReport> };
  /** Absent when metrics are off: `/metrics` is then 404. */
  readonly metrics?: MetricsExposition | undefined;
  /** An endpoint that fails (a metrics render) is reported as `server.error`. */
  readonly events: EventSink;
  /** true once the server is stopping: readiness answers 503 so that traffic drains away. */
  readonly stopping: () => boolean;
}

/** Paths the admin app answers, outside any CAS base path. */
export const ADMIN_PATHS: readonly string[] = ['/health/live', '/health/ready', '/metrics'];

const NOT_SERVED = 'The server could not complete the request';

/**
 * Health and metrics for operators (docs/protocol.md §10): GET or HEAD only, never cached, and never behind
 * the CAS REST error renderer. Liveness is the process answering; readiness runs the checks.
 */
export function createAdminApp(deps: AdminDependencies): Koa {
  const endpoints: Readonly<Record<string, (ctx: Context) => Promise<void>>> = {
    '/health/live': (ctx) => {
      ctx.body = { status: 'live' };
      return Promise.resolve();
    },
    '/health/ready': (ctx) => answerReadiness(ctx, deps),
    '/metrics': (ctx) => answerMetrics(ctx, deps),
  };
  const app = new Koa();
  app.use(async function answerAdminRequest(ctx: Context): Promise<void> {
    const endpoint = Object.hasOwn(endpoints, ctx.path) ? endpoints[ctx.path] : undefined;
    ctx.set('Cache-Control', 'no-store');
    if (endpoint === undefined || (ctx.path === '/metrics' && deps.metrics === undefined)) {
      plain(ctx, 404, 'Not found');
    } else if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      setFailureHeaders(ctx, new MethodNotAllowedError(['GET', 'HEAD']));
      plain(ctx, 405, 'Method not allowed');
    } else {
      await endpoint(ctx).catch((thrown: unknown) => failed(ctx, deps.events, thrown));
    }
  });
  // Without a listener Koa prints what escapes (a response stream failing) to the console, past the log's redaction.
  app.on('error', (error: unknown, ctx: Context) => reportEscapedError(deps.events, error, ctx));
  return app;
}

async function answerReadiness(ctx: Context, deps: AdminDependencies): Promise<void> {
  if (deps.stopping()) {
    ctx.status = 503;
    ctx.body = { status: 'stopping' };
    return;
  }
  const report = await deps.readiness.probe();
  ctx.status = report.ready ? 200 : 503;
  ctx.body = report.ready
    ? { status: 'ready', components: report.components }
    : { status: 'unready', components: report.components, failures: report.failures };
}

async function answerMetrics(ctx: Context, deps: AdminDependencies): Promise<void> {
  if (deps.metrics === undefined) return;
  const text = await deps.metrics.render();
  ctx.type = deps.metrics.contentType;
  ctx.body = text;
}

/** Reported as `server.error`, answered 500 without details. */
function failed(ctx: Context, events: EventSink, thrown: unknown): void {
  try {
    events.emit({ type: 'server.error', error: thrown instanceof Error ? thrown : new Error(String(thrown)), context: `${ctx.method} ${ctx.path}` });
  } catch {
    // A sink breaking its no-throw contract must not turn an error answer into a crash.
  }
  plain(ctx, 500, NOT_SERVED);
}

function plain(ctx: Context, status: number, text: string): void {
  ctx.status = status;
  ctx.type = 'text/plain';
  ctx.body = text;
}
