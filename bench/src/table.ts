import type { MemorySummary, RowSummary, Summary } from './verdicts.js';
import { targetText } from './verdicts.js';

const MIB = 2 ** 20;

/**
 * The rows as a Markdown table: medians over rounds, errors and non-2xx summed, the ratio to the
 * baseline (information, comparable between runs), the ratio to the reference its target names
 * (what is judged), the target and the verdict.
 */
export function renderTable(summary: Summary): string {
  const lines = [
    '| Row | server | ratio to baseline | ratio to reference | 2xx req/s | p50 ms | p99 ms | server CPU µs/req | errors | non-2xx | target | verdict |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |',
    ...summary.rows.map(renderRow),
  ];
  return lines.join('\n');
}

function renderRow(row: RowSummary): string {
  const cells = [
    row.label,
    row.configuration ?? 'Koa',
    row.baselineRatio?.toFixed(2) ?? '',
    row.ratio?.toFixed(2) ?? '',
    row.okPerSecond.toFixed(0),
    row.p50.toFixed(1),
    row.p99.toFixed(1),
    row.cpuMicros.toFixed(0),
    String(row.errors),
    String(row.non2xx),
    row.target ? targetText(row.target) : '',
    row.verdict.text,
  ];
  return `| ${cells.join(' | ')} |`;
}

/** The memory figures as a Markdown table. */
export function renderMemoryTable(memory: readonly MemorySummary[]): string {
  const lines = ['| Figure | server | RSS after GC | heap used | created in | target | verdict |', '| --- | --- | ---: | ---: | ---: | --- | --- |'];
  for (const { configuration, figure, verdict } of memory) {
    const cells = figure
      ? [
          `${figure.tickets.toLocaleString('en')} live TGTs created over HTTP`,
          configuration,
          `${(figure.rssBytes / MIB).toFixed(0)} MiB (${(figure.rssBytes / 1e9).toFixed(2)} GB; ${(figure.rssBeforeBytes / MIB).toFixed(0)} MiB before)`,
          `${(figure.heapUsedBytes / MIB).toFixed(0)} MiB`,
          `${figure.seconds.toFixed(0)} s`,
        ]
      : ['live TGTs created over HTTP', configuration, '', '', ''];
    lines.push(`| ${[...cells, '< 1.2 GB RSS after GC at 1,000,000', verdict.text].join(' | ')} |`);
  }
  return lines.join('\n');
}
