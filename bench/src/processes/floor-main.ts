import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import { appendedFile, createAuditLogger, createLogger, standardStream, writeEventLine } from '@tessera/cli-server';
import type Koa from 'koa';
import { koaBody } from 'koa-body';
import { ST_SIZED_ID, TGT_SIZED_ID } from '../sized-ids.js';
import { serveRouter } from './serve-router.js';

/**
 * The floor under tessera's rows, run as a process of its own: bare Koa + @koa/router (+ koa-body for
 * the forms, as in the baseline) routes at tessera's paths that do no work of tessera's domain at all,
 * no credential check, no store, no ticket, but write what tessera writes for such a request, by
 * tessera's own writers: its JSON log line on stdout (a file, as the bench runs tessera) and its
 * audit records to a file. Each answers as tessera does, with a body of the same size. No tessera
 * row can be faster than its floor: a floor's ratio is the most that Koa plus those lines leave.
 * Usage: floor-main.js AUDIT_FILE. Prints its origin on stderr once listening; SIGTERM stops it,
 * after every line is written.
 */

const [auditFile] = process.argv.slice(2);
if (auditFile === undefined) throw new Error('usage: floor-main.js AUDIT_FILE');

const logDestination = standardStream(1, 'the log');
const log = createLogger('info', logDestination.stream);
const auditDestination = appendedFile(auditFile, 'the audit trail');
const audit = createAuditLogger(auditDestination.stream, 'bench');

/** What tessera logs in place of a ticket id: its kind, counter and a short hash. */
const FINGERPRINT = 'ST-1#000000000000';
const VALIDATION_SUCCESS = `<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas">
  <cas:authenticationSuccess>
    <cas:user>casuser</cas:user>
  </cas:authenticationSuccess>
</cas:serviceResponse>
`;

type Context = Koa.ParameterizedContext;

/** The audit record's common part, as tessera's audit sink writes it. */
function auditFields(ctx: Context, requestId: string, category: string, action: string, endpoint: string) {
  return { audit: category, action, outcome: 'success', who: 'casuser', address: ctx.ip, requestId, endpoint };
}

const router = new Router();
const form = koaBody({ urlencoded: true, json: false, multipart: false });

router.post('/v1/tickets', form, (ctx) => {
  const requestId = randomUUID();
  const fields = { principal: 'casuser', handlers: ['config-users'], credentialTypes: ['usernamePassword'], kind: 'TGT', ticket: 'TGT-1#000000000000', requestId };
  writeEventLine(log, 'info', { event: 'ticket.created', events: ['authentication.succeeded', 'ticket.created'], ...fields }, 'authentication.succeeded, ticket.created');
  writeEventLine(audit, 'info', { ...auditFields(ctx, requestId, 'authentication', 'authentication.succeeded', 'POST /v1/tickets'), handlers: fields.handlers, credentialTypes: fields.credentialTypes });
  writeEventLine(audit, 'info', { ...auditFields(ctx, requestId, 'ticket', 'ticket.created', 'POST /v1/tickets'), kind: 'TGT', ticket: fields.ticket });
  ctx.status = 201;
  ctx.set('Location', `${ctx.protocol}://${ctx.host}/v1/tickets/${TGT_SIZED_ID}`);
  ctx.type = 'text/plain';
  ctx.body = TGT_SIZED_ID;
});

router.post('/v1/tickets/:tgt', form, (ctx) => {
  const requestId = randomUUID();
  const { service } = ctx.request.body as Record<string, string | undefined>;
  writeEventLine(log, 'info', { event: 'ticket.created', kind: 'ST', ticket: FINGERPRINT, principal: 'casuser', service, requestId }, 'ticket.created');
  writeEventLine(audit, 'info', { ...auditFields(ctx, requestId, 'ticket', 'ticket.created', 'POST /v1/tickets/:tgt'), kind: 'ST', ticket: FINGERPRINT, service });
  ctx.type = 'text/plain';
  ctx.body = ST_SIZED_ID;
});

router.get('/p3/serviceValidate', (ctx) => {
  const requestId = randomUUID();
  const { service } = ctx.query;
  writeEventLine(log, 'info', { event: 'ticket.validated', ticket: FINGERPRINT, principal: 'casuser', service, requestId }, 'ticket.validated');
  writeEventLine(audit, 'info', { ...auditFields(ctx, requestId, 'validation', 'ticket.validated', 'GET /p3/serviceValidate'), ticket: FINGERPRINT, service });
  ctx.type = 'application/xml; charset=utf-8';
  ctx.body = VALIDATION_SUCCESS;
});

serveRouter(
  router,
  (origin) => process.stderr.write(`${origin}\n`),
  () => Promise.all([logDestination.close(), auditDestination.close()]),
);
