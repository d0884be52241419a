import type { IncomingHttpHeaders } from 'node:http';
import autocannon from 'autocannon';
import { FORM, TEXT_FORM, type FlowProgress, type FlowSpec, type LoadOutcome, type LoadSpec, type SamlLoginSpec } from './load-spec.js';
import { AuthnRequestPool, authnRequest, loginAnswer, POST_SSO_PATH, SAML_CALLBACK_PATH } from './saml-sp.js';

/**
 * The load generator, in a child process of its own so that it never shares a server's event loop
 * (it still shares the machine's cores). Receives one LoadSpec or FlowSpec, answers one LoadOutcome.
 */
process.once('message', (spec: LoadSpec | FlowSpec | SamlLoginSpec) => {
  run(spec).then(
    (outcome) => process.send?.(outcome, () => process.exit(0)),
    (error: unknown) => {
      process.send?.({ error: String(error) }, () => process.exit(1));
    },
  );
});

async function run(spec: LoadSpec | FlowSpec | SamlLoginSpec): Promise<LoadOutcome> {
  if (spec.kind === 'saml-login') return samlLogins(spec);
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

interface SamlLoginContext {
  session?: string | undefined;
  requestId?: string | undefined;
  startedAt?: number;
  /** The pending login's cookie, `TSAML2_<id>=<key>`, set by the SSO endpoint. */
  loginCookie?: string | undefined;
  /** Where the SSO endpoint sends the browser (/login), then where /login sends it back (the callback), as paths. */
  next?: string | undefined;
  /** Why this login failed before its last step, if it did. */
  failed?: string | undefined;
}

/** Most kinds of failure a SAML run reports (each once, with its count). */
const MOST_PROBLEMS = 5;

/** The SAML row's load (SamlLoginSpec): logins are its unit, so its rate, latency and failures are counted per login, not per HTTP request. */
async function samlLogins(spec: SamlLoginSpec): Promise<LoadOutcome> {
  const { origin, base } = spec;
  const destination = `${origin}${base}${POST_SSO_PATH}`;
  const pool = new AuthnRequestPool(() => authnRequest(destination), spec.poolBatch);
  const latencies: number[] = [];
  const problems = new Map<string, number>();
  const samples: string[] = [];
  let answered = 0;
  let sessionTurn = 0;
  const fail = (context: SamlLoginContext, problem: string) => void (context.failed ??= problem);
  // A step whose predecessor failed still goes out (to a path that answers 404), so autocannon's loop stays in step; the login counts once, as failed.
  const nowhere = `${base}/bench-saml-login-failed`;
  const cookieOf = (context: SamlLoginContext, withLogin: boolean) => [context.session, ...(withLogin && context.loginCookie ? [context.loginCookie] : [])].join('; ');

  const requests: autocannon.Request[] = [
    {
      method: 'POST',
      path: `${base}${POST_SSO_PATH}`,
      setupRequest: (req, raw) => {
        const context = raw as SamlLoginContext;
        context.session ??= spec.sessions[sessionTurn++ % spec.sessions.length];
        const request = pool.take();
        Object.assign(context, { requestId: request.id, startedAt: performance.now(), loginCookie: undefined, next: undefined, failed: undefined });
        return { ...req, body: request.body, headers: { ...FORM, cookie: cookieOf(context, false) } };
      },
      onResponse: (status, _body, raw, headers) => {
        const context = raw as SamlLoginContext;
        const location = headerOf(headers, 'location');
        const cookie = [headerOf(headers, 'set-cookie') ?? []].flat().find((value) => value.startsWith('TSAML2_'));
        if (status !== 303 || typeof location !== 'string' || cookie === undefined) return fail(context, `SSO endpoint: status ${status}${typeof location === 'string' ? '' : ', no Location'}${cookie === undefined ? ", no login cookie" : ''}`);
        context.loginCookie = cookie.split(';')[0];
        context.next = pathOn(origin, location);
        if (context.next === undefined) fail(context, `SSO endpoint: sent the browser to ${location}`);
      },
    },
    {
      method: 'GET',
      setupRequest: (req, raw) => {
        const context = raw as SamlLoginContext;
        return { ...req, path: context.failed === undefined && context.next !== undefined ? context.next : nowhere, headers: { cookie: cookieOf(context, false) } };
      },
      onResponse: (status, _body, raw, headers) => {
        const context = raw as SamlLoginContext;
        if (context.failed !== undefined) return;
        const location = headerOf(headers, 'location');
        context.next = typeof location === 'string' && status >= 300 && status < 400 ? pathOn(origin, location) : undefined;
        if (context.next === undefined || !context.next.startsWith(`${base}${SAML_CALLBACK_PATH}`) || !context.next.includes('ticket=')) fail(context, `/login: status ${status}, not back to the callback with a ticket`);
      },
    },
    {
      method: 'GET',
      setupRequest: (req, raw) => {
        const context = raw as SamlLoginContext;
        return { ...req, path: context.failed === undefined && context.next !== undefined ? context.next : nowhere, headers: { cookie: cookieOf(context, true) } };
      },
      onResponse: (status, body, raw) => {
        const context = raw as SamlLoginContext;
        answered += 1;
        const answer = context.failed === undefined ? loginAnswer(status, body, context.requestId) : { problem: context.failed };
        if ('problem' in answer) {
          problems.set(answer.problem, (problems.get(answer.problem) ?? 0) + 1);
          return;
        }
        latencies.push(performance.now() - (context.startedAt ?? 0));
        if (samples.length < spec.samples) samples.push(answer.samlResponse);
      },
    },
  ];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    autocannon({ url: origin, connections: spec.connections, duration: spec.duration, requests, timeout: 10 }, (error: unknown, done) => (error ? reject(new Error('autocannon failed', { cause: error })) : resolve(done)));
  });
  const seconds = (result.finish.getTime() - result.start.getTime()) / 1000;
  const failed = [...problems.values()].reduce((sum, count) => sum + count, 0);
  return {
    seconds,
    okPerSecond: latencies.length / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    errors: result.errors,
    non2xx: failed,
    responses: answered,
    collected: samples,
    problems: [...problems].slice(0, MOST_PROBLEMS).map(([problem, count]) => `${count} × ${problem}`),
    pool: { refills: pool.refills, madeOnTheSpot: pool.madeOnTheSpot },
  };
}

function headerOf(headers: IncomingHttpHeaders | undefined, name: string): string | string[] | undefined {
  return headers === undefined ? undefined : Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
}

/** The path and query of `location` when it is on `origin`. */
function pathOn(origin: string, location: string): string | undefined {
  const url = new URL(location, origin);
  return url.origin === origin ? `${url.pathname}${url.search}` : undefined;
}

/** The `fraction` percentile of `values` in ms, to 0.1 ms (0 when there are none). */
function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]! * 10) / 10;
}
