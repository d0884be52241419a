import type { AddressInfo } from 'node:net';
import type { DestinationStream, Logger } from 'pino';
import { LOOPBACK_HOSTS } from '@tessera/adapter-koa';
import type { MongoDatabase } from '@tessera/adapter-mongo';
import { AdminEndpoints } from './admin/admin-endpoints.js';
import { openAuditStream, type AuditStream } from './audit/audit-stream.js';
import { createDemoStateFolder } from './config/demo.js';
import { initialServices } from './config/initial-services.js';
import { exposedSecretFileWarnings, secretFiles } from './config/secret-files.js';
import { unpinnedServiceWarnings } from './config/service-warnings.js';
import type { Config } from './config/schema.js';
import { buildContainer } from './container.js';
import { gracefulCloser } from './graceful-close.js';
import { listen, urlHost } from './listen.js';
import { createListener, type Listener } from './listener.js';
import { standardStream } from './log-destination.js';
import { createLogger } from './logging.js';
import type { Binder } from './di.js';
import { KEYS, type BackgroundJob } from './keys.js';

export interface StartOptions {
  readonly config: Config;
  /** Where JSON log lines go; stdout by default. */
  readonly log?: DestinationStream;
  /** Where audit lines go instead of `audit.destination` (unless that is `off`). */
  readonly auditLog?: DestinationStream;
  /** Tests only: a stand-in MongoDB database for `storage.type: mongo`, used instead of connecting. */
  readonly mongoDatabase?: MongoDatabase;
}

export interface RunningServer {
  /** Base URL of every endpoint, with the port actually bound, e.g. `http://127.0.0.1:8080/cas` (`https://` with `server.tls`). */
  readonly url: string;
  readonly port: number;
  /** Origin of `/health/live`, `/health/ready` and `/metrics`: the admin listener's, or the main one's without the base path. */
  readonly adminUrl: string;
  /** Stops accepting connections and resolves once the requests in flight have finished and every log and audit line is written. */
  close(): Promise<void>;
  /** With an audit file: opens it again under its name, after logrotate moved it (SIGHUP); logs a failure. */
  readonly reopenAuditFile?: () => void;
}

/** Composes tessera from its configuration and listens; resolves once it accepts connections. */
export async function startServer({ config, log, auditLog, mongoDatabase }: StartOptions): Promise<RunningServer> {
  const stdout = log ? undefined : standardStream(1, 'the log');
  const logger = createLogger(config.logging.level, log ?? stdout?.stream);
  let audit: AuditStream | undefined;
  /** Every line written, when the start fails or the server has stopped. */
  const closeLogs = async () => {
    await audit?.close();
    await stdout?.close();
  };
  let binder: Binder;
  try {
    warnAboutUnsafeSettings(config, logger);
    createDemoStateFolder(config);
    const services = await initialServices(config);
    for (const { service, text } of unpinnedServiceWarnings(config, services)) logger.warn({ serviceId: service.id, name: service.name }, text);
    audit = openAuditStream(config.audit.destination, config.server.nodeName, auditLog);
    binder = buildContainer({ config, logger, auditLogger: audit?.logger, services, mongoDatabase, serveBeforeStore: true });
    await binder.open();
  } catch (error) {
    await closeLogs();
    throw error;
  }
  let server: Listener;
  let scheme: 'http' | 'https';
  let closeGracefully: ReturnType<typeof gracefulCloser>;
  let admin: AdminEndpoints;
  let jobs: BackgroundJob[];
  try {
    admin = new AdminEndpoints(binder, config);
    ({ server, scheme } = createListener(config, admin.mainListener(binder.get(KEYS.HttpApp).callback()), binder.get(KEYS.EventSink)));
    jobs = binder.getAll(KEYS.BackgroundJob);
    closeGracefully = gracefulCloser(server);
    await listen(server, config.server.port, config.server.host);
  } catch (error) {
    // Bad files (keys, certificates) are found while composing: leave no store connection behind.
    await binder.close();
    await closeLogs();
    throw error;
  }

  const port = (server.address() as AddressInfo).port;
  const origin = `${scheme}://${urlHost(config.server.host)}:${port}`;
  const url = `${origin}${config.server.basePath}`;
  let adminUrl: string;
  try {
    adminUrl = await admin.start(origin);
  } catch (error) {
    await closeGracefully(0);
    await binder.close();
    await closeLogs();
    throw error;
  }
  for (const job of jobs) job.start();
  logger.info({ url, adminUrl, modules: config.modules }, `tessera ready at ${url}`);

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      logger.info('tessera stopping: requests in flight may finish');
      admin.markStopping();
      await closeGracefully(config.server.shutdownTimeoutSeconds * 1000);
      await admin.close(config.server.shutdownTimeoutSeconds * 1000);
      for (const job of jobs) await job.stop();
      await binder.close();
      logger.info('tessera stopped');
      await closeLogs();
    })());
  const auditFile = audit?.file === undefined ? undefined : audit;
  if (!auditFile) return { url, port, adminUrl, close };
  const reopenAuditFile = () => {
    try {
      auditFile.reopen();
    } catch (error) {
      logger.error({ err: error }, `could not reopen the audit file ${auditFile.file}; still writing to the one open`);
    }
  };
  return { url, port, adminUrl, close, reopenAuditFile };
}

function warnAboutUnsafeSettings(config: Config, logger: Logger): void {
  if (config.demo) {
    logger.warn(
      'DEMO CREDENTIALS ARE ON: the demo user casuser can log in and a demo service accepts every http(s) URL, and proxy callbacks at every https URL. ' +
        'Never run this in production; start with --config to switch the demo off.',
    );
  }
  if (config.server.publicUrl === undefined && !isLoopback(config.server.host)) {
    logger.warn(
      `server.publicUrl is not set: absolute URLs and token issuers come from each request's host, and only hosts in server.allowedHosts are answered (${(config.server.allowedHosts ?? LOOPBACK_HOSTS).join(', ')}). ` +
        'Set server.publicUrl to the URL users reach in production.',
    );
  }
  for (const { setting, file, mode, text } of exposedSecretFileWarnings(secretFiles(config))) logger.warn({ setting, file, mode }, text);
  for (const user of config.users) {
    if (user.password.kind === 'plain') {
      logger.warn({ username: user.username }, `user ${user.username} has a plain-text password; use passwordHash (tessera hash-password)`);
    }
  }
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}
