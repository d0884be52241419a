import type { BenchResults, Measured, MemoryFigure, RoundRun, RowRuns } from './results.js';
import { BASELINE_LABEL, MEMORY_TARGET_BYTES, MEMORY_TARGET_TICKETS, referenceName, type Target } from './rows.js';

export interface Verdict {
  /** No failed request, and the target (if any) reached. */
  readonly met: boolean;
  /** `met`, `**not met** (…)`, `**failed** (…)`, `**not judged** (…)`, or empty for a row without target that did not fail. */
  readonly text: string;
}

/** A row's medians over its rounds (errors and non-2xx summed), its ratios and its verdict. */
export interface RowSummary {
  readonly label: string;
  /** For the plot. */
  readonly short: string;
  readonly configuration?: string;
  readonly okPerSecond: number;
  /** The median of the rounds' ratios to the baseline of the same round: information, comparable between runs. */
  readonly baselineRatio?: number;
  /**
   * For a row with a target: the median of the rounds' ratios to its reference of the same round
   * (its floor, the TGT row, the raw argon2id rate). Absent when the reference lacks a round.
   */
  readonly ratio?: number;
  readonly p50: number;
  readonly p99: number;
  readonly cpuMicros: number;
  readonly errors: number;
  readonly non2xx: number;
  readonly target?: Target;
  readonly verdict: Verdict;
}

export interface MemorySummary {
  readonly configuration: string;
  readonly figure?: MemoryFigure;
  readonly verdict: Verdict;
}

export interface Summary {
  readonly rows: readonly RowSummary[];
  readonly memory: readonly MemorySummary[];
  /** Every row free of failures and every target met (a target not measured is not met). */
  readonly allMet: boolean;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** What the table's server column says of the reference rows of node-oidc-provider alone. */
export const LIBRARY_SERVER = 'node-oidc-provider';

/** A reference's 2xx rate by round. */
type Rates = ReadonlyMap<number, number>;

const ratesOf = (runs: readonly RoundRun[]): Rates => new Map(runs.map((run) => [run.round, run.measured.okPerSecond]));

/** Medians, ratios and verdicts of a run; `memoryConfigurations` names the configurations whose memory figure is wanted. */
export function summarise(results: BenchResults, memoryConfigurations: readonly string[]): Summary {
  const baseline = ratesOf(results.baseline);
  const rows: RowSummary[] = [
    { ...medians(results.baseline, baseline), label: BASELINE_LABEL, short: 'baseline', verdict: judge(results.baseline.map((run) => run.measured)) },
    ...results.floors.map(({ row, runs }) => ({ ...medians(runs, baseline), label: row.label, short: row.short, verdict: judge(runs.map((run) => run.measured)) })),
    ...results.library.map(({ row, runs }) => ({ ...medians(runs, baseline), label: row.label, short: row.short, configuration: LIBRARY_SERVER, verdict: judge(runs.map((run) => run.measured)) })),
    ...results.rows.map((rowRuns) => summariseRow(rowRuns, baseline, results)),
  ];
  const memory = memoryConfigurations.map((configuration) => {
    const figure = results.memory.find((candidate) => candidate.configuration === configuration);
    return { configuration, ...(figure ? { figure } : {}), verdict: judgeMemory(figure) };
  });
  return { rows, memory, allMet: rows.every((row) => row.verdict.met) && memory.every((figure) => figure.verdict.met) };
}

function summariseRow({ configuration, row, runs }: RowRuns, baseline: Rates, results: BenchResults): RowSummary {
  const summary = { ...medians(runs, baseline), label: row.label, short: row.short, configuration };
  const measured = runs.map((run) => run.measured);
  if (!row.target) return { ...summary, verdict: judge(measured) };
  const target = row.target;
  const reference = referenceRates(target, row.name, configuration, results);
  const { ratio, missing } = ratioOver(runs, reference);
  const named = `its reference, ${describeReference(target, row.short, configuration)}`;
  const why = reference.size === 0 ? `${named}, was not measured` : `${named}, has no 2xx rate in round${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`;
  const verdict = ratio === undefined ? judge(measured, { target, missing: why }) : judge(measured, { target, ratio, p99: summary.p99 });
  return { ...summary, ...(ratio !== undefined && { ratio }), target, verdict };
}

/** The 2xx rates by round of what `target` is taken against, for the row `rowName` of `configuration`. */
function referenceRates(target: Target, rowName: string, configuration: string, results: BenchResults): Rates {
  const { against } = target;
  if (against === 'floor') return ratesOf(results.floors.find((floor) => floor.row.name === rowName)?.runs ?? []);
  if (against === 'raw argon2') return new Map(results.rawArgon2.filter((raw) => raw.configuration === configuration).map((raw) => [raw.round, raw.perSecond]));
  if (against === 'library') return ratesOf(results.library.find((reference) => reference.row.name === rowName)?.runs ?? []);
  return ratesOf(results.rows.find((other) => other.configuration === configuration && other.row.name === against.row)?.runs ?? []);
}

function describeReference(target: Target, short: string, configuration: string): string {
  const { against } = target;
  if (against === 'floor') return `the floor of ${short}`;
  if (against === 'raw argon2') return 'the raw argon2id verify rate';
  if (against === 'library') return `the ${short} of node-oidc-provider alone`;
  return `the ${referenceName(against)} row (${configuration})`;
}

/** The median of each round's rate over the reference's rate in that round; none if the reference lacks (or had no 2xx in) any of the rounds. */
function ratioOver(runs: readonly RoundRun[], reference: Rates): { ratio?: number; missing: number[] } {
  const missing = runs.filter((run) => !((reference.get(run.round) ?? 0) > 0)).map((run) => run.round);
  if (runs.length === 0 || missing.length > 0) return { missing };
  return { ratio: median(runs.map((run) => run.measured.okPerSecond / reference.get(run.round)!)), missing };
}

function medians(runs: readonly RoundRun[], baseline: Rates) {
  const pick = (field: (measured: Measured) => number) => median(runs.map((run) => field(run.measured)));
  const sum = (field: (measured: Measured) => number) => runs.reduce((total, run) => total + field(run.measured), 0);
  const { ratio: baselineRatio } = ratioOver(runs, baseline);
  return {
    okPerSecond: pick((m) => m.okPerSecond),
    ...(baselineRatio !== undefined && { baselineRatio }),
    p50: pick((m) => m.p50),
    p99: pick((m) => m.p99),
    cpuMicros: pick((m) => m.cpuMicrosPerResponse),
    errors: sum((m) => m.errors),
    non2xx: sum((m) => m.non2xx),
  };
}

/** What a judged row's verdict needs: its ratio to its reference (median of rounds) and p99, or why there is no ratio. */
export type Judged = { readonly target: Target } & ({ readonly ratio: number; readonly p99: number } | { readonly missing: string });

/**
 * A row with any error or non-2xx answer fails whatever its rate; otherwise its target decides: met
 * when its ratio to its reference is at least the target and its p99 within the target's. A row
 * whose reference was not measured is not judged, and not met.
 */
export function judge(runs: readonly Measured[], judged?: Judged): Verdict {
  const errors = runs.reduce((total, run) => total + run.errors, 0);
  const non2xx = runs.reduce((total, run) => total + run.non2xx, 0);
  if (runs.length === 0) return { met: false, text: '**not measured**' };
  if (errors > 0 || non2xx > 0) return { met: false, text: `**failed** (${errors} errors, ${non2xx} non-2xx)` };
  if (!judged) return { met: true, text: '' };
  if ('missing' in judged) return { met: false, text: `**not judged** (${judged.missing})` };
  const { target, ratio, p99 } = judged;
  const misses = [
    ...(ratio >= target.ratio ? [] : [`ratio ${ratio.toFixed(2)} < ${target.ratio}`]),
    ...(target.p99Ms === undefined || p99 <= target.p99Ms ? [] : [`p99 ${p99} ms > ${target.p99Ms} ms`]),
  ];
  return misses.length === 0 ? { met: true, text: 'met' } : { met: false, text: `**not met** (${misses.join('; ')})` };
}

export function judgeMemory(figure: MemoryFigure | undefined): Verdict {
  if (!figure) return { met: false, text: '**not measured**' };
  if (figure.liveTgts !== figure.tickets) return { met: false, text: `**failed** (${figure.liveTgts} live TGTs, not ${figure.tickets})` };
  if (figure.tickets !== MEMORY_TARGET_TICKETS) return { met: false, text: `**not judged** (the target is for ${MEMORY_TARGET_TICKETS.toLocaleString('en')} TGTs)` };
  return figure.rssBytes < MEMORY_TARGET_BYTES ? { met: true, text: 'met' } : { met: false, text: `**not met** (${(figure.rssBytes / 1e9).toFixed(2)} GB ≥ ${MEMORY_TARGET_BYTES / 1e9} GB)` };
}

/** A target as the table states it, its reference named: `≥ 0.8 of its floor, p99 ≤ 15 ms`. */
export function targetText(target: Target): string {
  const ratio = `≥ ${target.ratio} of ${referenceName(target.against)}`;
  return target.p99Ms === undefined ? ratio : `${ratio}, p99 ≤ ${target.p99Ms} ms`;
}
