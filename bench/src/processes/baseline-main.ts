import Router from '@koa/router';
import { koaBody } from 'koa-body';
import { TGT_SIZED_ID } from '../sized-ids.js';
import { serveRouter } from './serve-router.js';

/**
 * The yardstick, run as a process of its own: bare Koa + @koa/router, one POST route that parses a
 * urlencoded body with koa-body and answers 201 with a Location and an id of a TGT's length as text,
 * as TGT creation does, minus everything tessera adds. The body matters: Node writes an empty answer
 * in one call, any other in a corked writev, and the load generator reads it. Prints its origin on
 * stdout once listening; SIGTERM stops it.
 */

const router = new Router();
router.post('/v1/tickets', koaBody({ urlencoded: true, json: false, multipart: false }), (ctx) => {
  const { username } = ctx.request.body as Record<string, string | undefined>;
  ctx.status = 201;
  ctx.set('Location', `/v1/tickets/${username ?? ''}`);
  ctx.type = 'text/plain';
  ctx.body = TGT_SIZED_ID;
});
serveRouter(router, (origin) => process.stdout.write(`${origin}\n`));
