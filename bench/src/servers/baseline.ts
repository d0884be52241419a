import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { koaBody } from 'koa-body';

export interface Listening {
  readonly origin: string;
  close(): Promise<void>;
}

/**
 * The yardstick: bare Koa + @koa/router, one POST route that parses a urlencoded body with koa-body
 * and answers 201 with a Location, as TGT creation does, minus everything tessera adds.
 */
export async function startBaseline(): Promise<Listening> {
  const app = new Koa();
  const router = new Router();
  router.post('/v1/tickets', koaBody({ urlencoded: true, json: false, multipart: false }), (ctx) => {
    const { username } = ctx.request.body as Record<string, string | undefined>;
    ctx.status = 201;
    ctx.set('Location', `/v1/tickets/${username ?? ''}`);
    // A body of null would silently turn the 201 into a 204 (Koa); an empty string keeps it.
    ctx.body = '';
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
