import { parseArgs } from 'node:util';
import { ROWS, type RowName } from './rows.js';

export interface BenchOptions {
  readonly connections: number;
  /** Seconds per measured run. */
  readonly duration: number;
  /** Seconds of unmeasured load per row before the first round. */
  readonly warmup: number;
  readonly rounds: number;
  /** Live TGTs created over HTTP for the memory figure (0 skips it). */
  readonly tickets: number;
  /** libuv thread pool size (UV_THREADPOOL_SIZE) of every server and of the raw argon2 measure. */
  readonly poolSize: number;
  /** Exit 1 unless every target is met. */
  readonly check: boolean;
  /** Write docs/benchmarks.md and its plot from this run. */
  readonly markdown: boolean;
  readonly quick: boolean;
  /** Only these rows (every row when absent). */
  readonly rows?: readonly RowName[];
  /** Only the server configurations of these names (every one when absent). */
  readonly servers?: readonly string[];
  /** A folder each tessera, and the OIDC reference (oidc-reference.cpuprofile), writes a V8 CPU profile into when it stops (node --cpu-prof). */
  readonly cpuProfileDir?: string;
}

type Defaults = Pick<BenchOptions, 'connections' | 'duration' | 'warmup' | 'rounds' | 'tickets'>;

const FULL: Defaults = { connections: 50, duration: 10, warmup: 3, rounds: 3, tickets: 1_000_000 };
const QUICK: Defaults = { connections: 50, duration: 2, warmup: 1, rounds: 1, tickets: 20_000 };

export const BENCH_USAGE = `Usage: pnpm bench [--quick] [--check] [--markdown] [--duration S] [--warmup S] [--rounds N]
                  [--connections N] [--tickets N] [--pool-size N] [--rows A,B] [--servers A,B] [--cpu-prof DIR]
  --quick       1 round of 2 s after 1 s warm-up, 20,000 TGTs: checks the harness, not the targets
  --check       exit 1 unless every target is met
  --markdown    write docs/benchmarks.md and docs/benchmarks.svg from this run
  --pool-size   UV_THREADPOOL_SIZE of every server and of the raw argon2 measure (default: the
                environment's UV_THREADPOOL_SIZE, else libuv's 4)
  --rows        only these rows: ${ROWS.map((row) => row.name).join(', ')}; jwt and x509 bring tgt, the row
                their targets are taken against (a row's floor is measured with it)
  --servers     only these server configurations, e.g. memory
  --cpu-prof    each tessera and the OIDC reference write a V8 CPU profile into DIR when they stop (scripts/cpuprofile-top.mjs reads it)
`;

/** The options of `pnpm bench`; throws naming the flag on a bad value. */
export function benchOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): BenchOptions {
  const { values } = parseArgs({
    args: argv.filter((arg) => arg !== '--'),
    options: {
      quick: { type: 'boolean', default: false },
      check: { type: 'boolean', default: false },
      markdown: { type: 'boolean', default: false },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      rounds: { type: 'string' },
      connections: { type: 'string' },
      tickets: { type: 'string' },
      'pool-size': { type: 'string' },
      rows: { type: 'string' },
      servers: { type: 'string' },
      'cpu-prof': { type: 'string' },
    },
  });
  const defaults = values.quick ? QUICK : FULL;
  return {
    connections: wholeNumber('--connections', values.connections, defaults.connections, 1),
    duration: wholeNumber('--duration', values.duration, defaults.duration, 1),
    warmup: wholeNumber('--warmup', values.warmup, defaults.warmup, 0),
    rounds: wholeNumber('--rounds', values.rounds, defaults.rounds, 1),
    tickets: wholeNumber('--tickets', values.tickets, defaults.tickets, 0),
    poolSize: wholeNumber('--pool-size', values['pool-size'] ?? env['UV_THREADPOOL_SIZE'], 4, 1),
    check: values.check,
    markdown: values.markdown,
    quick: values.quick,
    ...(values.rows !== undefined && { rows: rowNames(values.rows) }),
    ...(values.servers !== undefined && { servers: list('--servers', values.servers) }),
    ...(values['cpu-prof'] !== undefined && { cpuProfileDir: values['cpu-prof'] }),
  };
}

function rowNames(text: string): RowName[] {
  const known = ROWS.map((row) => row.name);
  const names = list('--rows', text);
  const unknown = names.find((name) => !(known as string[]).includes(name));
  if (unknown !== undefined) throw new Error(`--rows: no row "${unknown}" (rows: ${known.join(', ')})`);
  return names as RowName[];
}

function list(flag: string, text: string): string[] {
  const names = text.split(',').map((name) => name.trim()).filter((name) => name !== '');
  if (names.length === 0) throw new Error(`${flag}: expected a comma-separated list`);
  return names;
}

export function wholeNumber(flag: string, text: string | undefined, fallback: number, least: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < least) throw new Error(`${flag}: expected a whole number ≥ ${least}, got "${text}"`);
  return value;
}
