import type { BenchResults, Measured, MemoryFigure, RoundRun } from '../src/results.js';
import { FLOOR_ROWS, LIBRARY_ROWS, ROWS, type FloorRow, type LibraryRow, type RowName } from '../src/rows.js';

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

/** `rates`, one run per round from round 1. */
export function rounds(rates: readonly number[], overrides: Partial<Measured> = {}): RoundRun[] {
  return rates.map((rate, index) => ({ round: index + 1, measured: load(rate, overrides) }));
}

/**
 * Three rounds of a baseline at 20,000/s, the TGT create floor at 16,000/s, TGT create at 14,400/s
 * (0.9 of its floor), JWT TGT create at 7,200/s (0.5 of TGT create), and the argon2 row at 95% of
 * the raw argon2id rate measured before it.
 */
export function threeRounds(): BenchResults {
  return {
    baseline: rounds([20_000, 20_000, 20_000]),
    floors: [floor('tgt', [16_000, 16_000, 16_000])],
    library: [],
    rows: [
      { configuration: 'memory', row: row('tgt'), runs: rounds([14_400, 14_400, 14_400]) },
      { configuration: 'memory', row: row('jwt'), runs: rounds([7_200, 7_200, 7_200]) },
      { configuration: 'memory', row: row('argon2'), runs: rounds([190, 199.5, 209], { p99: 400 }) },
    ],
    rawArgon2: [200, 210, 220].map((perSecond, index) => ({ configuration: 'memory', round: index + 1, perSecond, cpuMicrosPerVerify: 10_000 })),
    rawWebAuthn: [4000, 4200, 4400].map((perSecond, index) => ({ configuration: 'memory', round: index + 1, perSecond, cpuMicrosPerVerify: 250 })),
    memory: [MILLION_TGTS],
  };
}

/** The floor of `name` at these rates, one round each from round 1. */
export function floor(name: FloorRow['name'], rates: readonly number[], overrides: Partial<Measured> = {}): BenchResults['floors'][number] {
  const found = FLOOR_ROWS.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no floor ${name}`);
  return { row: found, runs: rounds(rates, overrides) };
}

/** node-oidc-provider alone's run of the OIDC row `name` at these rates, one round each from round 1. */
export function libraryReference(name: LibraryRow['name'], rates: readonly number[], overrides: Partial<Measured> = {}): BenchResults['library'][number] {
  const found = LIBRARY_ROWS.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no library reference ${name}`);
  return { row: found, runs: rounds(rates, overrides) };
}

/** `results` with the runs of its row `name` (of the memory configuration) at these rates instead. */
export function withRow(results: BenchResults, name: RowName, rates: readonly number[], overrides: Partial<Measured> = {}): BenchResults {
  return { ...results, rows: results.rows.map((rowRuns) => (rowRuns.configuration === 'memory' && rowRuns.row.name === name ? { ...rowRuns, runs: rounds(rates, overrides) } : rowRuns)) };
}
