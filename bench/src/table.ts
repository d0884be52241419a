import type { LoadOutcome } from './load-spec.js';
import type { Row } from './rows.js';

/** A load's outcome with the server's CPU time per response over it. */
export interface MeasuredOutcome extends LoadOutcome {
  readonly cpuMicrosPerResponse: number;
}

export interface RowResult {
  readonly row: Row;
  readonly rounds: readonly MeasuredOutcome[];
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const P99_TARGET_MS = 15;

/** The results as a Markdown table: medians over rounds, errors and non-2xx summed. */
export function renderTable(results: readonly RowResult[], baselineRate: number, argon2Rate: number): string {
  const lines = [
    '| Endpoint | 2xx req/s | ratio | p50 ms | p99 ms | server CPU µs/req | errors | non-2xx | target |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const { row, rounds } of results) {
    const rate = median(rounds.map((r) => r.okPerSecond));
    const against = row.target?.against === 'argon2' ? argon2Rate : baselineRate;
    const ratio = rate / against;
    const p99 = median(rounds.map((r) => r.p99));
    const sum = (pick: (r: LoadOutcome) => number) => rounds.reduce((total, r) => total + pick(r), 0);
    lines.push(
      `| ${row.label} | ${rate.toFixed(0)} | ${ratio.toFixed(2)}${row.target?.against === 'argon2' ? ' of raw argon2' : ''} | ` +
        `${median(rounds.map((r) => r.p50)).toFixed(1)} | ${p99.toFixed(1)} | ${median(rounds.map((r) => r.cpuMicrosPerResponse)).toFixed(0)} | ` +
        `${sum((r) => r.errors)} | ${sum((r) => r.non2xx)} | ${verdict(row, ratio, p99)} |`,
    );
  }
  return lines.join('\n');
}

function verdict(row: Row, ratio: number, p99: number): string {
  if (!row.target) return '';
  const wanted = `≥ ${row.target.ratio}${row.target.against === 'baseline' ? `, p99 ≤ ${P99_TARGET_MS} ms` : ''}`;
  const met = ratio >= row.target.ratio && (row.target.against === 'argon2' || p99 <= P99_TARGET_MS);
  return `${wanted}: ${met ? 'met' : '**not met**'}`;
}
