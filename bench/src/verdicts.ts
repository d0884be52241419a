import type { BenchResults, Measured, MemoryFigure } from './results.js';
import { BASELINE_LABEL, MEMORY_TARGET_BYTES, MEMORY_TARGET_TICKETS, type RowName, type Target } from './rows.js';

export interface Verdict {
  /** No failed request, and the target (if any) reached. */
  readonly met: boolean;
  /** `met`, `**not met** (…)`, `**failed** (…)`, or empty for a row without target that did not fail. */
  readonly text: string;
}

/** A row's medians over its rounds (errors and non-2xx summed), its ratio and its verdict. */
export interface RowSummary {
  readonly label: string;
  /** For the plot. */
  readonly short: string;
  readonly configuration?: string;
  readonly okPerSecond: number;
  /** The median of the rounds' ratios, each round's rate over its own reference. */
  readonly ratio: number;
  readonly p50: number;
  readonly p99: number;
  readonly cpuMicros: number;
  readonly errors: number;
  readonly non2xx: number;
  readonly target?: Target;
  /** The ratio of the floor of this row (a judged tessera row), when one was measured. */
  readonly floorRatio?: number;
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

/** Medians, ratios and verdicts of a run; `memoryConfigurations` names the configurations whose memory figure is wanted. */
export function summarise(results: BenchResults, memoryConfigurations: readonly string[]): Summary {
  const baselineRuns = results.baseline.map((measured) => ({ measured, reference: measured.okPerSecond }));
  const floors = new Map<RowName, RowSummary>(
    results.floors.map(({ row, runs }) => {
      const summary = medians(runs);
      return [row.name, { ...summary, label: row.label, short: row.short, verdict: judge(runs.map((run) => run.measured), summary.ratio) }];
    }),
  );
  const rows = [
    { ...medians(baselineRuns), label: BASELINE_LABEL, short: 'baseline', verdict: judge(baselineRuns.map((run) => run.measured), 1) },
    ...floors.values(),
    ...results.rows.map(({ configuration, row, runs }) => {
      const summary = medians(runs);
      const verdict = judge(runs.map((run) => run.measured), summary.ratio, summary.p99, row.target);
      const floor = row.target ? floors.get(row.name) : undefined;
      return { ...summary, label: row.label, short: row.short, configuration, ...(row.target && { target: row.target }), ...(floor && { floorRatio: floor.ratio }), verdict };
    }),
  ];
  const memory = memoryConfigurations.map((configuration) => {
    const figure = results.memory.find((candidate) => candidate.configuration === configuration);
    return { configuration, ...(figure ? { figure } : {}), verdict: judgeMemory(figure) };
  });
  return { rows, memory, allMet: rows.every((row) => row.verdict.met) && memory.every((figure) => figure.verdict.met) };
}

function medians(runs: readonly { measured: Measured; reference: number }[]) {
  const pick = (field: (measured: Measured) => number) => median(runs.map((run) => field(run.measured)));
  const sum = (field: (measured: Measured) => number) => runs.reduce((total, run) => total + field(run.measured), 0);
  return {
    okPerSecond: pick((m) => m.okPerSecond),
    ratio: median(runs.map((run) => run.measured.okPerSecond / run.reference)),
    p50: pick((m) => m.p50),
    p99: pick((m) => m.p99),
    cpuMicros: pick((m) => m.cpuMicrosPerResponse),
    errors: sum((m) => m.errors),
    non2xx: sum((m) => m.non2xx),
  };
}

/** A row with any error or non-2xx answer fails whatever its rate; otherwise its target decides. */
export function judge(runs: readonly Measured[], ratio: number, p99?: number, target?: Target): Verdict {
  const errors = runs.reduce((total, run) => total + run.errors, 0);
  const non2xx = runs.reduce((total, run) => total + run.non2xx, 0);
  if (runs.length === 0) return { met: false, text: '**not measured**' };
  if (errors > 0 || non2xx > 0) return { met: false, text: `**failed** (${errors} errors, ${non2xx} non-2xx)` };
  if (!target) return { met: true, text: '' };
  const misses = [
    ...(ratio >= target.ratio ? [] : [`ratio ${ratio.toFixed(2)} < ${target.ratio}`]),
    ...(target.p99Ms === undefined || p99 === undefined || p99 <= target.p99Ms ? [] : [`p99 ${p99} ms > ${target.p99Ms} ms`]),
  ];
  return misses.length === 0 ? { met: true, text: 'met' } : { met: false, text: `**not met** (${misses.join('; ')})` };
}

export function judgeMemory(figure: MemoryFigure | undefined): Verdict {
  if (!figure) return { met: false, text: '**not measured**' };
  if (figure.liveTgts !== figure.tickets) return { met: false, text: `**failed** (${figure.liveTgts} live TGTs, not ${figure.tickets})` };
  if (figure.tickets !== MEMORY_TARGET_TICKETS) return { met: false, text: `**not judged** (the target is for ${MEMORY_TARGET_TICKETS.toLocaleString('en')} TGTs)` };
  return figure.rssBytes < MEMORY_TARGET_BYTES ? { met: true, text: 'met' } : { met: false, text: `**not met** (${(figure.rssBytes / 1e9).toFixed(2)} GB ≥ ${MEMORY_TARGET_BYTES / 1e9} GB)` };
}

export function targetText(target: Target): string {
  const ratio = `≥ ${target.ratio}${target.against === 'raw argon2' ? ' of raw argon2id verify' : ''}`;
  return target.p99Ms === undefined ? ratio : `${ratio}, p99 ≤ ${target.p99Ms} ms`;
}
