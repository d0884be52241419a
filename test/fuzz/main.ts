import { parseArgs } from 'node:util';
import { fuzz, startFuzzTarget } from './http-fuzz.js';

/**
 * `pnpm fuzz [--requests N] [--seed S]`: the fuzz run of the test suite, longer (200000 requests by
 * default). A failure prints fast-check's seed and shrunk counterexample; `--seed` replays it.
 */
const { values } = parseArgs({ options: { requests: { type: 'string', default: '200000' }, runs: { type: 'string' }, seed: { type: 'string' } } });
const requests = Number(values.runs ?? values.requests);
const target = await startFuzzTarget();
const started = Date.now();
try {
  const { requests: sent, statuses } = await fuzz(target, { requests, ...(values.seed === undefined ? {} : { seed: Number(values.seed) }) });
  const serverErrors = target.tessera.logs.filter((line) => line.includes('"server.error"'));
  const summary = [...statuses].sort().map(([status, count]) => `${status}: ${count}`).join(', ');
  process.stdout.write(`${sent} requests in ${((Date.now() - started) / 1000).toFixed(1)} s, no 5xx (${summary}); server.error lines: ${serverErrors.length}\n`);
  process.exitCode = serverErrors.length === 0 ? 0 : 1;
} finally {
  await target.close();
}
