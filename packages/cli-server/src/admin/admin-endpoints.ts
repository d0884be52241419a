import type { RequestListener } from 'node:http';
import { ADMIN_PATHS, createAdminApp } from '@tessera/adapter-koa';
import type { EventSink } from '@tessera/core';
import type { CentralSettings } from '../config/central.js';
import type { AdminConfig } from '../config/operability.js';
import type { Binder } from '../di.js';
import { listenGracefully, type Listening } from '../listen.js';
import { createPlainListener } from '../listener.js';
import { KEYS, type HttpApp } from '../keys.js';

/**
 * `/health/live`, `/health/ready` and `/metrics` (docs/protocol.md §10): on a listener of their own when
 * `admin.port` is set (and then not on the main one), otherwise in front of the main app, outside
 * the CAS base path.
 */
export class AdminEndpoints {
  private stopping = false;
  private readonly answer: RequestListener;
  private readonly events: EventSink;

  constructor(
    binder: Binder,
    private readonly config: CentralSettings & { readonly admin: AdminConfig },
  ) {
    const [metrics] = binder.getAll(KEYS.Metrics);
    this.events = binder.get(KEYS.EventSink);
    const app: HttpApp = createAdminApp({
      readiness: binder.get(KEYS.ReadinessProbe),
      metrics,
      events: this.events,
      stopping: () => this.stopping,
    });
    this.answer = app.callback();
  }

  /** The main listener's handler: as given with an admin port, else answering the admin paths first. */
  mainListener(app: RequestListener): RequestListener {
    if (this.config.admin.port !== undefined) return app;
    return (request, response) => (isAdminPath(request.url) ? this.answer(request, response) : app(request, response));
  }

  /** The listener of `admin.port` (when it is set), listening; closing it gives the requests in flight `server.shutdownTimeoutSeconds`. */
  listen(port: number): Promise<Listening> {
    const server = createPlainListener(this.config, this.answer, this.events);
    return listenGracefully(server, 'http', port, this.config.admin.host, this.config.server.shutdownTimeoutSeconds * 1000);
  }

  /** From now on readiness answers 503 "stopping", so load balancers drain this node. */
  markStopping(): void {
    this.stopping = true;
  }
}

function isAdminPath(url: string | undefined): boolean {
  if (url === undefined) return false;
  const query = url.indexOf('?');
  return ADMIN_PATHS.includes(query < 0 ? url : url.slice(0, query));
}
