import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type RequestListener, type Server as HttpServer, type ServerOptions } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createSecureContext, type SecureContextOptions } from 'node:tls';
import { answerClientErrors } from '@tessera/adapter-koa';
import type { EventSink } from '@tessera/core';
import { configurationError } from './config/errors.js';
import type { CentralSettings } from './config/central.js';
import { modulesAskForClientCertificates, type ModuleInputs } from './modules/index.js';

export type Listener = HttpServer | HttpsServer;

/**
 * The server of `server.*`: plain HTTP, or HTTPS only when `server.tls` names a certificate and key.
 * It asks clients for a certificate when the x509 module reads TLS certificates (or `clientCa` is
 * set), and never refuses a handshake for one: the request then gets a proper 401 from the module.
 */
export function createListener(config: ModuleInputs, listener: RequestListener, events: EventSink): { server: Listener; scheme: 'http' | 'https' } {
  const { server, scheme } = createServer(config, listener);
  return { server: guardConnections(server, events), scheme };
}

/** A plain HTTP listener (the admin one) under the same rules as the main one. */
export function createPlainListener(config: CentralSettings, listener: RequestListener, events: EventSink): HttpServer {
  return guardConnections(createHttpServer(connectionTimeouts(config), listener), events);
}

/**
 * What every listener does with connections: a request the client botches, or sends too slowly for
 * `server.timeouts`, is refused by adapter-koa's clientError listener, never reported as a server error.
 */
function guardConnections<Server extends Listener>(server: Server, events: EventSink): Server {
  server.on('clientError', answerClientErrors(events));
  // Node's HTTP server ends a connection the moment its client half-closes, dropping an answer still
  // being computed (a login waiting on argon2 or the store); this flag, which Node reads on every FIN,
  // makes it answer first and close after. The server's timeouts still bound such a connection.
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  return server;
}

/**
 * Node's own deadlines from `server.timeouts`: it answers 408 (through clientError) and closes a
 * connection whose headers, or whole request with its body, take too long, and closes idle kept-alive
 * ones. It looks for expired requests every `connectionsCheckingInterval`, 30 s by default, so a
 * deadline could be missed by that much: a quarter of the headers deadline, at most a second.
 */
function connectionTimeouts(config: CentralSettings): ServerOptions {
  const { headersMs, requestMs, keepAliveMs } = config.server.timeouts;
  return {
    headersTimeout: headersMs,
    requestTimeout: requestMs,
    keepAliveTimeout: keepAliveMs,
    connectionsCheckingInterval: Math.min(1_000, Math.max(10, Math.floor(headersMs / 4))),
  };
}

function createServer(config: ModuleInputs, listener: RequestListener): { server: Listener; scheme: 'http' | 'https' } {
  const { cert, key, clientCa } = config.server.tls;
  if (cert === undefined || key === undefined) return { server: createHttpServer(connectionTimeouts(config), listener), scheme: 'http' };
  const options: SecureContextOptions = { cert: readPem('server.tls.cert', cert), key: readPem('server.tls.key', key) };
  checkContext('server.tls.cert', { cert: options.cert }, 'is not a PEM certificate');
  checkContext('server.tls.key', options, 'is not a PEM private key of server.tls.cert');
  if (clientCa !== undefined) {
    options.ca = readPem('server.tls.clientCa', clientCa);
    checkContext('server.tls.clientCa', { ca: options.ca }, 'is not a PEM file of CA certificates');
  }
  const askForCertificates = clientCa !== undefined || modulesAskForClientCertificates(config);
  // A TLS handshake is part of getting the request's headers in: it gets the same deadline.
  const timeouts = { ...connectionTimeouts(config), handshakeTimeout: config.server.timeouts.headersMs };
  return { server: createHttpsServer({ ...options, ...timeouts, requestCert: askForCertificates, rejectUnauthorized: false }, listener), scheme: 'https' };
}

function readPem(setting: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw configurationError([{ setting, problem: `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})` }]);
  }
}

function checkContext(setting: string, options: SecureContextOptions, problem: string): void {
  try {
    createSecureContext(options);
  } catch (error) {
    throw configurationError([{ setting, problem: `${problem} (${(error as Error).message})` }]);
  }
}
