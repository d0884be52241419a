import type { Server as HttpServer } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import { gracefulCloser } from './graceful-close.js';

/** Resolves once `server` listens; a port in use (EADDRINUSE) rejects instead of going unnoticed. */
export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** A listener that listens, and closes gracefully. */
export interface Listening {
  /** `scheme://host:port`, with the port actually bound. */
  readonly origin: string;
  readonly port: number;
  /** Stops accepting connections, lets the requests in flight finish within the grace period, then closes whatever connections remain. */
  close(): Promise<void>;
}

/** Listens on `port` and `host`; closing it gives the requests in flight `graceMs`. */
export async function listenGracefully(server: HttpServer, scheme: 'http' | 'https', port: number, host: string, graceMs: number): Promise<Listening> {
  const closeGracefully = gracefulCloser(server);
  await listen(server, port, host);
  const bound = (server.address() as AddressInfo).port;
  return { origin: `${scheme}://${urlHost(host)}:${bound}`, port: bound, close: () => closeGracefully(graceMs) };
}

/** The host as a URL writes it: IPv6 addresses in brackets. */
export function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
