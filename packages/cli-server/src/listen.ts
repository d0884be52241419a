import type { Server } from 'node:net';

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

/** The host as a URL writes it: IPv6 addresses in brackets. */
export function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
