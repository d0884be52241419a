/* eslint-disable no-console -- a command-line tool whose output is its report */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { drive } from './child.js';
import { MEMORY_STORE } from './configurations.js';
import { describeEnvironment, environmentLines } from './environment.js';
import { CHEAP_LOGIN, makeFixtures, SERVICE } from './fixtures.js';
import type { FlowProgress, FlowSpec } from './load-spec.js';
import { scrapeSample } from './metrics.js';
import { wholeNumber } from './options.js';
import { rssBytes } from './processes/proc.js';
import { startTessera, type TesseraProcess } from './processes/tessera-process.js';
import { soakVerdict, type SoakSample, type SoakVerdict } from './soak-verdict.js';

/**
 * `pnpm soak --minutes 10`: the login → ST → validate → logout loop on every connection against a
 * tessera started by its CLI (memory store, log and audit to files, metrics on), its RSS read from
 * /proc every `--sample-seconds`, and the verdict: the last minute's median RSS within 5% of the
 * second minute's, and no failed request. Exits 1 when the verdict is not met.
 */
const USAGE = 'Usage: pnpm soak [--minutes N (at least 3, default 10)] [--connections N] [--sample-seconds N] [--pool-size N]';
const MIB = 2 ** 20;

const argv = process.argv.slice(2).filter((arg) => arg !== '--');
let settings;
try {
  const { values } = parseArgs({ args: argv, options: { minutes: { type: 'string' }, connections: { type: 'string' }, 'sample-seconds': { type: 'string' }, 'pool-size': { type: 'string' } } });
  settings = {
    // A verdict compares the second minute with the last: they must differ.
    minutes: wholeNumber('--minutes', values.minutes, 10, 3),
    connections: wholeNumber('--connections', values.connections, 50, 1),
    sampleSeconds: wholeNumber('--sample-seconds', values['sample-seconds'], 10, 1),
    poolSize: wholeNumber('--pool-size', values['pool-size'] ?? process.env['UV_THREADPOOL_SIZE'], 4, 1),
  };
} catch (error) {
  console.error(`pnpm soak: ${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}

console.log(environmentLines({ ...describeEnvironment(argv), command: `pnpm soak ${argv.join(' ')}`.trimEnd() }).join('\n'));
console.log(`soak: ${settings.minutes} min of login → ST → validate → logout on ${settings.connections} connections, RSS every ${settings.sampleSeconds} s\n`);

const fixtures = await makeFixtures();
const prepared = await MEMORY_STORE.prepare(fixtures);
const samples: SoakSample[] = [];
let verdict: SoakVerdict;
let tessera: TesseraProcess | undefined;
try {
  tessera = await startTessera({ dir: join(fixtures.dir, 'soak'), settings: (audit) => ({ ...fixtures.settings(audit), ...prepared.settings }), poolSize: settings.poolSize });
  console.log(`tessera started by its CLI, pid ${tessera.pid}`);
  const { pid, metricsUrl, origin, base } = tessera;
  const started = performance.now();
  let progress: FlowProgress = { ok: 0, failed: 0 };
  const sample = async () => {
    const reading = { second: Math.round((performance.now() - started) / 1000), rssBytes: rssBytes(pid) };
    samples.push(reading);
    const live = await scrapeSample(metricsUrl, 'tessera_tgts_live').catch(() => Number.NaN);
    console.log(`t=${String(reading.second).padStart(4)} s  RSS ${(reading.rssBytes / MIB).toFixed(1)} MiB  live TGTs ${live}  requests 2xx ${progress.ok}, failed ${progress.failed}`);
  };
  const sampler = setInterval(() => void sample(), settings.sampleSeconds * 1000);
  let outcome;
  try {
    await sample();
    const flow: FlowSpec = { kind: 'flow', origin, base, connections: settings.connections, duration: settings.minutes * 60, login: CHEAP_LOGIN, service: SERVICE, progressSeconds: 1 };
    outcome = await drive(flow, (latest) => (progress = latest));
  } finally {
    clearInterval(sampler);
  }
  const endSecond = Math.round((performance.now() - started) / 1000);
  await sample();
  verdict = soakVerdict(samples, endSecond, outcome.errors + outcome.non2xx);
  console.log(
    `\n${(outcome.okPerSecond / 4).toFixed(0)} logins/s (4 requests each), p50 ${outcome.p50} ms, p99 ${outcome.p99} ms, errors ${outcome.errors}, non-2xx ${outcome.non2xx}`,
  );
} finally {
  await tessera?.close();
  await prepared.release();
  fixtures.remove();
}

console.log(`\nsoak verdict: ${verdict.text}`);
if (!verdict.met) process.exitCode = 1;
