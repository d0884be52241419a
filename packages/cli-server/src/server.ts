import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { DestinationStream, Logger } from 'pino';
import { LOOPBACK_HOSTS } from '@tessera/adapter-koa';
import type { MongoDatabase } from '@tessera/adapter-mongo';
import type { Clock } from '@tessera/core';
import { createDemoStateFolder } from './config/demo.js';
import { initialServices } from './config/initial-services.js';
import { configuredServiceTemplates } from './config/service-templates.js';
import { exposedSecretFileWarnings, secretFiles } from './config/secret-files.js';
import { serviceWarnings } from './config/service-warnings.js';
import type { Config } from './config/schema.js';
import { buildContainer } from './container.js';
import { KEYS } from './keys.js';

export interface StartOptions {
  readonly config: Config;
  /** Where JSON log lines go; stdout by default. */
  readonly log?: DestinationStream;
  /** Where audit lines go instead of `audit.destination` (unless that is `off`). */
  readonly auditLog?: DestinationStream;
  /** Tests only: a stand-in MongoDB database for `storage.type: mongo`, used instead of connecting. */
  readonly mongoDatabase?: MongoDatabase;
  /** Tests only: the time every part reads instead of the system's, for end-to-end tests to move. */
  readonly clock?: Clock;
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

/**
 * Composes tessera from its configuration and listens; resolves once it accepts connections. The
 * container opens everything with a lifetime in order (the log and the audit trail, the storage, the
 * listeners, the background jobs); a start that fails closes what had opened, in reverse, and so does close().
 */
export async function startServer({ config, log, auditLog, mongoDatabase, clock }: StartOptions): Promise<RunningServer> {
  createDemoStateFolder(config);
  const templates = await configuredServiceTemplates(config);
  const services = await initialServices(config, templates);
  const binder = buildContainer({ config, services, templates, mongoDatabase, clock, serve: { log, auditLog } });
  try {
    const logger = binder.get(KEYS.Logger);
    warnAboutUnsafeSettings(config, logger);
    for (const { service, text } of serviceWarnings(config, services)) logger.warn({ serviceId: service.id, name: service.name }, text);
    const absent = secretFiles(config).filter(({ file }) => !existsSync(file));
    await binder.open();
    reportWrittenKeyFiles(absent, logger);
  } catch (error) {
    await binder.close();
    throw error;
  }

  const main = binder.get(KEYS.MainListener);
  const [adminListener] = binder.getAll(KEYS.AdminListener);
  const url = `${main.origin}${config.server.basePath}`;
  const adminUrl = adminListener?.origin ?? main.origin;
  const lines = binder.get(KEYS.LifecycleLines);
  lines.ready(url, adminUrl, config.modules);

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      lines.stopping();
      binder.get(KEYS.AdminEndpoints).markStopping();
      await binder.close();
    })());
  const [audit] = binder.getAll(KEYS.AuditStream);
  const auditFile = audit?.file === undefined ? undefined : audit;
  if (!auditFile) return { url, port: main.port, adminUrl, close };
  const logger = binder.get(KEYS.Logger);
  const reopenAuditFile = () => {
    try {
      auditFile.reopen();
    } catch (error) {
      logger.error({ err: error }, `could not reopen the audit file ${auditFile.file}; still writing to the one open`);
    }
  };
  return { url, port: main.port, adminUrl, close, reopenAuditFile };
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

/** Names each key file the start wrote (a module's, generated because it was absent), by its setting and absolute path. */
function reportWrittenKeyFiles(absent: readonly { readonly setting: string; readonly file: string }[], logger: Logger): void {
  for (const { setting, file } of absent) {
    if (!existsSync(file)) continue;
    const path = resolve(file);
    logger.info({ setting, file: path }, `${setting}: generated new keys and wrote them to ${path} (mode 0600); keep it out of version control, and give every node the same file`);
  }
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}
