import { createServer } from 'node:net';

/**
 * A loopback port nobody listens on right now (the OS picks it). `withBusPort`: one whose port + 10000
 * is free too, as a Redis Cluster node needs for its cluster bus.
 */
export async function freePort(options: { readonly withBusPort?: boolean } = {}): Promise<number> {
  for (;;) {
    const port = await anyFreePort();
    if (!options.withBusPort) return port;
    if (port + 10_000 <= 65_535 && (await portIsFree(port + 10_000))) return port;
  }
}

function anyFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}
