import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { koaBody } from 'koa-body';

/** As long as a TGT id of the bench's tessera (`TGT-<n>-<43 random>-bench`). */
const TGT_SIZED_ID = `TGT-1-${'x'.repeat(43)}-bench`;

export interface Listening {
  readonly origin: string;
  close(): Promise<void>;
}

/**
 * The yardstick: bare Koa + @koa/router, one POST route that parses a urlencoded body with koa-body
 * and answers 201 with a Location and an id of a TGT's length as text, as TGT creation does, minus
 * everything tessera adds. The body matters: Node writes an empty answer in one call, any other in a
 * corked writev, and the load generator reads it; an empty-bodied baseline ran a third faster.
 */
export async function startBaseline(): Promise<Listening> {
  const app = new Koa();
  const router = new Router();
  router.post('/v1/tickets', koaBody({ urlencoded: true, json: false, multipart: false }), (ctx) => {
    const { username } = ctx.request.body as Record<string, string | undefined>;
    ctx.status = 201;
    ctx.set('Location', `/v1/tickets/${username ?? ''}`);
    ctx.type = 'text/plain';
    ctx.body = TGT_SIZED_ID;
  });
  app.use(router.routes());
  const handle = app.callback();
  return listen(createServer((request, response) => void handle(request, response)));
}

export async function listen(server: Server): Promise<Listening> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
