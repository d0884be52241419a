import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DestinationStream, Logger } from 'pino';
import type { MongoDatabase } from '@tessera/adapter-mongo';
import { systemClock } from '@tessera/core';
import { openAuditStream } from './audit/audit-stream.js';
import { initialServices } from './config/initial-services.js';
import type { Config } from './config/schema.js';
import { buildContainer } from './container.js';
import { gracefulCloser } from './graceful-close.js';
import { createLogger } from './logging.js';
import { openStorage } from './storage/storage.js';
import { TOKENS } from './tokens.js';

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
  /** Base URL of every endpoint, with the port actually bound, e.g. `http://127.0.0.1:8080/cas`. */
  readonly url: string;
  readonly port: number;
  /** Stops accepting connections and resolves once the requests in flight have finished. */
  close(): Promise<void>;
  /** With an audit file: opens it again under its name, after logrotate moved it (SIGHUP); logs a failure. */
  readonly reopenAuditFile?: () => void;
}

/** Composes tessera from its configuration and listens; resolves once it accepts connections. */
export async function startServer({ config, log, auditLog, mongoDatabase }: StartOptions): Promise<RunningServer> {
  const logger = createLogger(config.logging.level, log);
  warnAboutDemoAndPlainPasswords(config, logger);
  const services = await initialServices(config);
  const audit = openAuditStream(config.audit.destination, config.server.nodeName, auditLog);
  const storage = await openStorage({ config, services, clock: systemClock, logger, ...(mongoDatabase === undefined ? {} : { mongoDatabase }) }).catch((error: unknown) => {
    audit?.close();
    throw error;
  });
  const binder = buildContainer({ config, logger, auditLogger: audit?.logger, stores: storage.ports });
  const server = createServer(binder.get(TOKENS.HttpApp).callback());
  const closeGracefully = gracefulCloser(server);

  try {
    await listen(server, config.server.port, config.server.host);
  } catch (error) {
    await storage.close();
    audit?.close();
    throw error;
  }

  const port = (server.address() as AddressInfo).port;
  const url = `http://${urlHost(config.server.host)}:${port}${config.server.basePath}`;
  logger.info({ url, modules: config.modules }, `tessera ready at ${url}`);

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      logger.info('tessera stopping: requests in flight may finish');
      await closeGracefully(config.server.shutdownTimeoutSeconds * 1000);
      await storage.close();
      audit?.close();
      logger.info('tessera stopped');
    })());
  if (!audit?.file) return { url, port, close };
  const reopenAuditFile = () => {
    try {
      audit.reopen();
    } catch (error) {
      logger.error({ err: error }, `could not reopen the audit file ${audit.file}; still writing to the one open`);
    }
  };
  return { url, port, close, reopenAuditFile };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

function warnAboutDemoAndPlainPasswords(config: Config, logger: Logger): void {
  if (config.demo) {
    logger.warn(
      'DEMO CREDENTIALS ARE ON: the demo user casuser can log in and a demo service accepts every http(s) URL. ' +
        'Never run this in production; start with --config to switch the demo off.',
    );
  }
  for (const user of config.users) {
    if (user.password.kind === 'plain') {
      logger.warn({ username: user.username }, `user ${user.username} has a plain-text password; use passwordHash (tessera hash-password)`);
    }
  }
}
