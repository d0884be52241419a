/* eslint-disable no-console -- a command-line tool whose output is its report */
import { writeFileSync } from 'node:fs';
import { CONFIGURATIONS, selectedConfigurations } from './configurations.js';
import { describeEnvironment, environmentLines, loadAverage } from './environment.js';
import { makeFixtures } from './fixtures.js';
import { rawArgon2Line, rawWebAuthnLine, renderDocument } from './markdown.js';
import { measure } from './measure.js';
import { BENCH_USAGE, benchOptions, type BenchOptions } from './options.js';
import { renderPlot } from './plot.js';
import { renderMemoryTable, renderTable } from './table.js';
import { summarise } from './verdicts.js';

const DOCUMENT = new URL('../../docs/benchmarks.md', import.meta.url);
const PLOT_NAME = 'benchmarks.svg';
const PLOT = new URL(`../../docs/${PLOT_NAME}`, import.meta.url);

const argv = process.argv.slice(2);
let options: BenchOptions;
try {
  options = benchOptions(argv);
} catch (error) {
  console.error(`pnpm bench: ${(error as Error).message}\n\n${BENCH_USAGE}`);
  process.exit(2);
}
const say = (line: string) => console.error(`[bench] ${line}`);

const environment = describeEnvironment(argv);
console.log(environmentLines(environment).join('\n'));
console.log(
  `settings: ${options.connections} connections, ${options.warmup} s warm-up per row, ${options.rounds} round(s) of ${options.duration} s, ` +
    `thread pool ${options.poolSize}, ${options.tickets.toLocaleString('en')} TGTs for the memory figure; servers and load generator in processes of their own\n`,
);

let configurations;
try {
  configurations = selectedConfigurations(CONFIGURATIONS, options);
} catch (error) {
  console.error(`pnpm bench: ${(error as Error).message}`);
  process.exit(2);
}
for (const configuration of configurations) {
  const added = configuration.rows.filter((row) => options.rows !== undefined && !options.rows.includes(row));
  if (added.length > 0) say(`${configuration.name}: measuring ${added.join(', ')} too, the row(s) the targets of those named are taken against`);
}
const fixtures = await makeFixtures();
let results;
try {
  results = await measure(options, configurations, fixtures, say);
} finally {
  fixtures.remove();
}
const summary = summarise(
  results,
  configurations.filter((configuration) => configuration.memoryFigure).map((configuration) => configuration.name),
);
const memoryTable = summary.memory.length > 0 ? `\n\n${renderMemoryTable(summary.memory)}` : '';
console.log(`\n${renderTable(summary)}${memoryTable}\n\n${rawArgon2Line(results)}\n${rawWebAuthnLine(results)}`);
const loadAverageAtEnd = loadAverage();
console.log(`\nload average at the end: ${loadAverageAtEnd}`);

if (options.markdown) {
  writeFileSync(PLOT, renderPlot(summary.rows, `tessera's rows against their references, ${environment.commit}`));
  writeFileSync(DOCUMENT, renderDocument({ environment, loadAverageAtEnd, options, configurations, results, summary, plot: PLOT_NAME }));
  say('wrote docs/benchmarks.md and docs/benchmarks.svg');
}
if (options.check && !summary.allMet) {
  console.error('\npnpm bench --check: not every target is met (see the verdicts above)');
  process.exitCode = 1;
}
