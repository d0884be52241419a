/* eslint-disable no-console -- a command-line tool whose output is its report */
import { askChild } from './child.js';
import { describeEnvironment, loadAverage } from './environment.js';
import type { MemoryFigure } from './memory-figure.js';
import { benchOptions } from './options.js';
import { runRows } from './run-rows.js';
import { startBaseline } from './servers/baseline.js';
import { startTessera } from './servers/tessera.js';
import { soak } from './soak.js';
import { renderTable } from './table.js';

const argv = process.argv.slice(2);
const options = benchOptions(argv);
const say = (line: string) => console.error(`[bench] ${line}`);

console.log(describeEnvironment(argv));
console.log(`settings: ${options.connections} connections, ${options.duration} s × ${options.rounds} rounds after ${options.warmup} s warm-up per row`);
console.log('load generator: autocannon in a child process (own event loop, same two cores as the servers)\n');

const baseline = await startBaseline();
const tessera = await startTessera();
try {
  const rows = await runRows(options, { baseline: baseline.origin, tessera }, say);
  console.log(renderTable(rows.results, rows.baselineRate, rows.argon2Rate));
  console.log(`\nraw argon2id verify rate (core's Argon2PasswordHasher, 8 in flight): ${rows.argon2Rounds.map((r) => r.toFixed(1)).join(', ')} /s per round, median ${rows.argon2Rate.toFixed(1)}`);

  if (options.soakMinutes > 0) {
    say(`soak: ${options.soakMinutes} min of mixed load`);
    const samples = await soak(tessera, rows.tgts, options.soakMinutes, options.connections);
    console.log(`\nsoak (${options.soakMinutes} min, mixed): RSS MiB ${samples.map((s) => `${s.second}s=${s.rssMiB.toFixed(0)}`).join(' ')}`);
  }
} finally {
  await Promise.all([baseline.close(), tessera.close()]);
}

if (options.tickets > 0) {
  say(`memory figure: ${options.tickets} TGTs in a fresh process`);
  const figure = await askChild<MemoryFigure>('./memory-figure.js', options.tickets, ['--expose-gc']);
  const verdict = figure.rssMiB * 2 ** 20 < 1.5e9 ? 'met' : '**not met**';
  console.log(
    `\nmemory: ${figure.tickets} live TGTs (core's CreateTicketGrantingTicket → MemoryTicketStore, created in ${figure.seconds.toFixed(1)} s): ` +
      `RSS ${figure.rssMiB.toFixed(0)} MiB (${figure.rssBeforeMiB.toFixed(0)} MiB before), heap used ${figure.heapUsedMiB.toFixed(0)} MiB; target < 1.5 GB RSS: ${verdict}`,
  );
}
console.log(`\nload average at the end: ${loadAverage()}`);
