import { argon2VerifyRate } from './argon2-rate.js';
import { drive } from './child.js';
import type { BenchOptions } from './options.js';
import { loadFor, mintSpec, ROWS, type Pools, type RowName } from './rows.js';
import { ARGON2_PASSWORD, type Tessera } from './servers/tessera.js';
import { median, type MeasuredOutcome, type RowResult } from './table.js';

const TGT_POOL = 1000;

export interface RowsOutcome {
  readonly results: readonly RowResult[];
  readonly baselineRate: number;
  readonly argon2Rate: number;
  readonly argon2Rounds: readonly number[];
  /** The live TGTs the rows drew from, for the soak. */
  readonly tgts: readonly string[];
}

/**
 * Warm-up of every row, then `rounds` rounds of every row in turn (the baseline first in each
 * round, so each ratio compares loads that ran minutes apart at most). Before each validation run a
 * fresh pool of STs is minted, twice the baseline rate times the duration, so no ST is used twice.
 */
export async function runRows(options: BenchOptions, servers: { baseline: string; tessera: Tessera }, say: (line: string) => void): Promise<RowsOutcome> {
  const tgts = await mint(servers.tessera, 'tgts', TGT_POOL, []);
  const outcomes = new Map<RowName, MeasuredOutcome[]>(ROWS.map((row) => [row.name, []]));
  const argon2Rounds: number[] = [];
  const run = async (name: RowName, seconds: number, sts: readonly string[] = []): Promise<MeasuredOutcome> => {
    // Both servers live in this process and only one is driven at a time: its CPU (every thread,
    // argon2's pool included) over the run, per response, whatever share of the cores autocannon took.
    const before = process.cpuUsage();
    const outcome = await drive(loadFor(name, servers, { tgts, sts } satisfies Pools, options.connections, seconds));
    const used = process.cpuUsage(before);
    return { ...outcome, cpuMicrosPerResponse: (used.user + used.system) / Math.max(1, outcome.responses) };
  };

  if (options.warmup > 0) {
    say(`warm-up: ${options.warmup} s per row`);
    for (const { name } of ROWS) {
      const sts = name === 'validate' ? await mint(servers.tessera, 'sts', 20_000, tgts) : [];
      await run(name, options.warmup, sts);
    }
  }
  for (let round = 1; round <= options.rounds; round += 1) {
    let granted: readonly string[] = [];
    let baselineRate = 0;
    for (const { name } of ROWS) {
      let sts: readonly string[] = [];
      if (name === 'validate') {
        const wanted = Math.ceil(2 * baselineRate * options.duration);
        sts = granted.length >= wanted ? granted : [...granted, ...(await mint(servers.tessera, 'sts', wanted - granted.length, tgts))];
      }
      if (name === 'argon2') argon2Rounds.push(await argon2VerifyRate(servers.tessera.argon2Phc, ARGON2_PASSWORD, options.duration));
      const outcome = await run(name, options.duration, sts);
      outcomes.get(name)?.push({ ...outcome, collected: [] });
      if (name === 'baseline') baselineRate = outcome.okPerSecond;
      if (name === 'grant') granted = outcome.collected;
      say(`round ${round}/${options.rounds} ${name}: ${outcome.okPerSecond.toFixed(0)} 2xx/s, p99 ${outcome.p99} ms, non-2xx ${outcome.non2xx}, errors ${outcome.errors}`);
    }
  }
  const results = ROWS.map((row) => ({ row, rounds: outcomes.get(row.name) ?? [] }));
  return {
    results,
    baselineRate: median(results[0]?.rounds.map((r) => r.okPerSecond) ?? [0]),
    argon2Rate: median(argon2Rounds),
    argon2Rounds,
    tgts,
  };
}

async function mint(tessera: Tessera, what: 'tgts' | 'sts', count: number, tgts: readonly string[]): Promise<readonly string[]> {
  const outcome = await drive(mintSpec(tessera, what, count, tgts));
  if (outcome.collected.length < count) throw new Error(`minting ${what}: wanted ${count}, got ${outcome.collected.length}`);
  return outcome.collected;
}
