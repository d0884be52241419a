import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { koaBody } from 'koa-body';

/**
 * The yardstick, run as a process of its own: bare Koa + @koa/router, one POST route that parses a
 * urlencoded body with koa-body and answers 201 with a Location and an id of a TGT's length as text,
 * as TGT creation does, minus everything tessera adds. The body matters: Node writes an empty answer
 * in one call, any other in a corked writev, and the load generator reads it. Prints its origin on
 * stdout once listening; SIGTERM stops it.
 */

/** As long as a TGT id of the bench's tessera (`TGT-<n>-<43 random>-bench`). */
const TGT_SIZED_ID = `TGT-1-${'x'.repeat(43)}-bench`;

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
const server = createServer((request, response) => void handle(request, response));
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
