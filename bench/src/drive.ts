import autocannon from 'autocannon';
import type { LoadOutcome, LoadSpec } from './load-spec.js';

/**
 * The load generator, in a child process of its own so that it never shares the servers' event
 * loop (it still shares the machine's two cores). Receives one LoadSpec, answers one LoadOutcome.
 */
process.once('message', (spec: LoadSpec) => {
  run(spec).then(
    (outcome) => process.send?.(outcome, () => process.exit(0)),
    (error: unknown) => {
      process.send?.({ error: String(error) }, () => process.exit(1));
    },
  );
});

async function run(spec: LoadSpec): Promise<LoadOutcome> {
  const collected: string[] = [];
  let next = 0;
  const paths = spec.paths;
  const request: autocannon.Request = {
    method: spec.method,
    ...(spec.body === undefined ? {} : { body: spec.body }),
    ...(spec.headers === undefined ? {} : { headers: { ...spec.headers } }),
    ...(paths.length > 1
      ? { setupRequest: (req: autocannon.Request) => ({ ...req, path: paths[next++ % paths.length] }) }
      : { path: paths[0] ?? '/' }),
    ...(spec.collect ? { onResponse: (status: number, body: string) => void (status < 300 && collected.push(body)) } : {}),
  };
  const result = await autocannon({
    url: spec.origin,
    connections: spec.connections,
    duration: spec.duration,
    ...(spec.amount === undefined ? {} : { amount: spec.amount }),
    requests: [request],
    timeout: 10,
  });
  const seconds = (result.finish.getTime() - result.start.getTime()) / 1000;
  return {
    okPerSecond: result['2xx'] / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    responses: result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'],
    collected,
  };
}
