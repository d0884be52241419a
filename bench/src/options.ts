import { parseArgs } from 'node:util';

export interface BenchOptions {
  readonly connections: number;
  /** Seconds per measured run. */
  readonly duration: number;
  /** Seconds of unmeasured load per row before the first round. */
  readonly warmup: number;
  readonly rounds: number;
  /** Live TGTs for the memory figure (0 skips it). */
  readonly tickets: number;
  /** Minutes of mixed load with RSS sampled (0: no soak). */
  readonly soakMinutes: number;
}

const FULL: BenchOptions = { connections: 50, duration: 10, warmup: 3, rounds: 3, tickets: 1_000_000, soakMinutes: 0 };
const QUICK: BenchOptions = { connections: 50, duration: 2, warmup: 1, rounds: 1, tickets: 100_000, soakMinutes: 0 };

/** `pnpm bench [--quick] [--duration S] [--warmup S] [--rounds N] [--connections N] [--tickets N] [--soak [MIN]]` */
export function benchOptions(argv: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv.filter((arg) => arg !== '--'),
    options: {
      quick: { type: 'boolean', default: false },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      rounds: { type: 'string' },
      connections: { type: 'string' },
      tickets: { type: 'string' },
      soak: { type: 'string' },
    },
  });
  const defaults = values.quick ? QUICK : FULL;
  return {
    connections: count('--connections', values.connections, defaults.connections, 1),
    duration: count('--duration', values.duration, defaults.duration, 1),
    warmup: count('--warmup', values.warmup, defaults.warmup, 0),
    rounds: count('--rounds', values.rounds, defaults.rounds, 1),
    tickets: count('--tickets', values.tickets, defaults.tickets, 0),
    soakMinutes: count('--soak', values.soak, defaults.soakMinutes, 0),
  };
}

function count(flag: string, text: string | undefined, fallback: number, least: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < least) throw new Error(`${flag}: expected a whole number ≥ ${least}, got "${text}"`);
  return value;
}
