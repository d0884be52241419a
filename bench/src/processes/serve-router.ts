import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Router from '@koa/router';
import Koa from 'koa';

/**
 * Serves `router` with bare Koa on a free loopback port and hands its origin to `announce` once
 * listening. SIGTERM closes every connection, waits for `beforeExit` (files still being written),
 * then exits 0: the bench stops its yardsticks as it stops tessera.
 */
export function serveRouter(router: Router, announce: (origin: string) => void, beforeExit: () => Promise<unknown> = () => Promise.resolve()): void {
  const app = new Koa();
  app.use(router.routes());
  const handle = app.callback();
  const server = createServer((request, response) => void handle(request, response));
  server.listen(0, '127.0.0.1', () => announce(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  process.once('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => void beforeExit().then(() => process.exit(0)));
  });
}
