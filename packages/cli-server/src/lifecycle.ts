import type { DestinationStream } from 'pino';
import { AdminEndpoints } from './admin/admin-endpoints.js';
import { openAuditStream } from './audit/audit-stream.js';
import type { Config } from './config/schema.js';
import type { Binder } from './di.js';
import { listenGracefully } from './listen.js';
import { createListener } from './listener.js';
import { standardStream, type LogDestination } from './log-destination.js';
import { createLogger } from './logging.js';
import { secretParameterNames } from './modules/index.js';
import { Redaction } from './redaction.js';
import { KEYS } from './keys.js';
import { LifecycleLines } from './lifecycle-lines.js';

/** Where a serving container writes, when not where the configuration says (tests). */
export interface ServeOptions {
  /** Where JSON log lines go; stdout by default. */
  readonly log?: DestinationStream | undefined;
  /** Where audit lines go instead of `audit.destination` (unless that is `off`). */
  readonly auditLog?: DestinationStream | undefined;
}

/**
 * The first resources of a serving container, so the last closed: the log, then the audit trail,
 * then the lines that say the server stopped (written once everything else is closed).
 */
export function bindServerLogs(binder: Binder, config: Config, { log, auditLog }: ServeOptions): void {
  // Every secret request parameter the central parts and the enabled modules declare stays out of the lines.
  const redaction = new Redaction(secretParameterNames(config));
  binder.resource(KEYS.LogDestination, [], () => (log ? givenStream(log) : standardStream(1, 'the log')), (destination) => destination.close());
  binder.resolved(KEYS.Logger, [KEYS.LogDestination], (destination) => createLogger(config.logging.level, destination.stream, redaction));
  if (config.audit.destination !== 'off') {
    binder.resource(KEYS.AuditStream, [], () => openAuditStream(config.audit.destination, config.server.nodeName, auditLog, redaction), (audit) => audit.close());
  }
  binder.resource(KEYS.LifecycleLines, [KEYS.Logger], (logger) => new LifecycleLines(logger), (lines) => lines.stopped());
}

/**
 * The last resources of a serving container: the admin listener (with `admin.port`), the main
 * listener, then the background jobs. Closing them in reverse stops the jobs, lets the main
 * listener's requests finish while the admin listener still answers (readiness: 503 `stopping`),
 * then closes the admin listener, each listener within `server.shutdownTimeoutSeconds`.
 */
export function bindServing(binder: Binder, config: Config): void {
  const graceMs = config.server.shutdownTimeoutSeconds * 1000;
  binder.resolved(KEYS.AdminEndpoints, [], () => new AdminEndpoints(binder, config));
  const adminPort = config.admin.port;
  if (adminPort !== undefined) {
    binder.resource(KEYS.AdminListener, [KEYS.AdminEndpoints], (admin) => admin.listen(adminPort), (listening) => listening.close());
  }
  binder.resource(
    KEYS.MainListener,
    [KEYS.AdminEndpoints, KEYS.HttpApp, KEYS.EventSink],
    (admin, app, events) => {
      // Reads the TLS files: a bad one stops the start, naming its setting.
      const { server, scheme } = createListener(config, admin.mainListener(app.callback()), events);
      return listenGracefully(server, scheme, config.server.port, config.server.host, graceMs);
    },
    (listening) => listening.close(),
  );
  binder.resource(
    KEYS.RunningJobs,
    [{ all: KEYS.BackgroundJob }],
    (jobs) => {
      for (const job of jobs) job.start();
      return jobs;
    },
    async (jobs) => {
      for (const job of [...jobs].reverse()) await job.stop();
    },
  );
}

/** A stream of the caller's: written to, never closed here. */
function givenStream(stream: DestinationStream): LogDestination {
  return { stream, reopen: () => undefined, close: () => Promise.resolve() };
}
