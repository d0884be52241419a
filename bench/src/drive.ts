import type { IncomingHttpHeaders } from 'node:http';
import autocannon from 'autocannon';
import { FORM, TEXT_FORM, type FlowProgress, type FlowSpec, type LoadOutcome, type LoadSpec } from './load-spec.js';

/**
 * The load generator, in a child process of its own so that it never shares a server's event loop
 * (it still shares the machine's cores). Receives one LoadSpec or FlowSpec, answers one LoadOutcome.
 */
process.once('message', (spec: LoadSpec | FlowSpec) => {
  run(spec).then(
    (outcome) => process.send?.(outcome, () => process.exit(0)),
    (error: unknown) => {
      process.send?.({ error: String(error) }, () => process.exit(1));
    },
  );
});

async function run(spec: LoadSpec | FlowSpec): Promise<LoadOutcome> {
  const collected: string[] = [];
  const counts: FlowProgress = { ok: 0, failed: 0 };
  const requests = spec.kind === 'flow' ? flow(spec, counts) : [single(spec, collected)];
  const options: autocannon.Options = {
    url: spec.origin,
    connections: spec.connections,
    duration: spec.duration,
    ...(spec.kind === 'request' && spec.amount !== undefined ? { amount: spec.amount } : {}),
    requests,
    timeout: 10,
  };
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options, (error: unknown, done) => (error ? reject(new Error('autocannon failed', { cause: error })) : resolve(done)));
    if (spec.kind !== 'flow') return;
    instance.on('reqError', () => (counts.failed += 1));
    const progress = setInterval(() => process.send?.({ progress: { ...counts } }), spec.progressSeconds * 1000);
    instance.on('done', () => clearInterval(progress));
  });
  const seconds = (result.finish.getTime() - result.start.getTime()) / 1000;
  return {
    seconds,
    okPerSecond: result['2xx'] / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    responses: result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'],
    collected,
  };
}

function single(spec: LoadSpec, collected: string[]): autocannon.Request {
  let next = 0;
  const { paths, bodies = [] } = spec;
  const turn = (req: autocannon.Request): autocannon.Request => {
    const at = next++;
    return { ...req, path: paths[at % paths.length], ...(bodies.length > 0 && { body: bodies[at % bodies.length] }) };
  };
  return {
    method: spec.method,
    ...(spec.body === undefined ? {} : { body: spec.body }),
    ...(spec.headers === undefined ? {} : { headers: { ...spec.headers } }),
    ...(paths.length > 1 || bodies.length > 0 ? { setupRequest: turn } : { path: paths[0] ?? '/' }),
    ...(spec.collect === 'body' && { onResponse: (status: number, body: string) => void (status < 300 && collected.push(body)) }),
    ...(spec.collect === 'location' && { onResponse: (status: number, _body: string, _context: object, headers: IncomingHttpHeaders | undefined) => void collectLocation(status, headers, collected) }),
  };
}

/** The Location of a redirect, however the server cased the header. */
function collectLocation(status: number, headers: IncomingHttpHeaders | undefined, collected: string[]): void {
  if (status < 300 || status >= 400 || headers === undefined) return;
  const location = Object.entries(headers).find(([name]) => name.toLowerCase() === 'location')?.[1];
  if (typeof location === 'string') collected.push(location);
}

interface FlowContext {
  tgt?: string | undefined;
  st?: string | undefined;
}

/** A failed step leaves `undefined` in the path of the next, which then fails too: every failure is counted. */
function flow({ base, login, service }: FlowSpec, counts: FlowProgress): autocannon.Request[] {
  const count = (status: number) => (status < 300 ? (counts.ok += 1) : (counts.failed += 1));
  const keep = (key: keyof FlowContext, created: number) => (status: number, body: string, context: object) => {
    count(status);
    (context as FlowContext)[key] = status === created ? body : undefined;
  };
  const withTgt = (req: autocannon.Request, context: object) => ({ ...req, path: `${base}/v1/tickets/${(context as FlowContext).tgt}` });
  const encodedService = encodeURIComponent(service);
  return [
    { method: 'POST', path: `${base}/v1/tickets`, body: login, headers: { ...TEXT_FORM }, onResponse: keep('tgt', 201) },
    { method: 'POST', body: `service=${encodedService}`, headers: { ...FORM }, setupRequest: withTgt, onResponse: keep('st', 200) },
    {
      method: 'GET',
      setupRequest: (req, context) => ({ ...req, path: `${base}/p3/serviceValidate?service=${encodedService}&ticket=${(context as FlowContext).st}` }),
      onResponse: count,
    },
    { method: 'DELETE', setupRequest: withTgt, onResponse: count },
  ];
}
