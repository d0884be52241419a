import type { BenchResults, Measured, MemoryFigure } from '../src/results.js';
import { FLOOR_ROWS, ROWS, type FloorRow, type RowName } from '../src/rows.js';

/** A load that went well, at `okPerSecond`, with whatever else a test sets. */
export function load(okPerSecond: number, overrides: Partial<Measured> = {}): Measured {
  return { seconds: 10, okPerSecond, p50: 2, p99: 9, errors: 0, non2xx: 0, responses: okPerSecond * 10, cpuMicrosPerResponse: 100, ...overrides };
}

export function row(name: RowName) {
  const found = ROWS.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no row ${name}`);
  return found;
}

export const MILLION_TGTS: MemoryFigure = {
  configuration: 'memory',
  tickets: 1_000_000,
  liveTgts: 1_000_000,
  seconds: 120,
  rssBeforeBytes: 100 * 2 ** 20,
  rssBytes: 1.1e9,
  heapUsedBytes: 900 * 2 ** 20,
};

/** Three rounds of a baseline at 20,000/s, TGT create at 15,000/s and the argon2 row at 95% of the raw rate. */
export function threeRounds(): BenchResults {
  return {
    baseline: [load(20_000), load(20_000), load(20_000)],
    floors: [],
    rows: [
      { configuration: 'memory', row: row('tgt'), runs: [15_000, 15_000, 15_000].map((rate) => ({ measured: load(rate), reference: 20_000 })) },
      { configuration: 'memory', row: row('argon2'), runs: [190, 200, 210].map((rate) => ({ measured: load(rate, { p99: 400 }), reference: rate / 0.95 })) },
    ],
    rawArgon2: [200, 210.5, 221].map((perSecond) => ({ configuration: 'memory', perSecond, cpuMicrosPerVerify: 10_000 })),
    memory: [MILLION_TGTS],
  };
}

/** The floor of `name` at these rates, one round each, against a 20,000/s baseline. */
export function floor(name: FloorRow['name'], rates: readonly number[], overrides: Partial<Measured> = {}): BenchResults['floors'][number] {
  const found = FLOOR_ROWS.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no floor ${name}`);
  return { row: found, runs: rates.map((rate) => ({ measured: load(rate, overrides), reference: 20_000 })) };
}
