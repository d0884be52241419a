import { referenceName } from './rows.js';
import type { RowSummary } from './verdicts.js';

const WIDTH = 860;
const LABEL_WIDTH = 210;
const FIGURES_WIDTH = 190;
const ROW_HEIGHT = 38;
const TOP = 50;
const AXIS_HEIGHT = 36;
const MET = '#2e7d32';
const NOT_MET = '#c62828';
const GREY = '#555555';

/**
 * An SVG bar chart, one bar per judged row: its ratio to its own reference (its floor, the TGT
 * row, or the raw argon2id rate; named under the row's name), green when its verdict is met and
 * red otherwise, its target marked, and its figures beside it. Written by the bench itself: no
 * browser, no plotting library.
 */
export function renderPlot(rows: readonly RowSummary[], title: string): string {
  const judged = rows.filter((row) => row.target !== undefined);
  const top = Math.max(1.2, ...judged.flatMap((row) => [row.ratio ?? 0, row.target?.ratio ?? 0]));
  const scaleMax = Math.ceil(top * 4) / 4;
  const plotWidth = WIDTH - LABEL_WIDTH - FIGURES_WIDTH;
  const x = (ratio: number) => LABEL_WIDTH + (Math.max(0, ratio) / scaleMax) * plotWidth;
  const bottom = TOP + judged.length * ROW_HEIGHT;
  const height = bottom + AXIS_HEIGHT;
  const figuresX = WIDTH - FIGURES_WIDTH + 12;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="${WIDTH / 2}" y="20" text-anchor="middle" font-size="14" font-weight="bold">${escapeXml(title)}</text>`,
    `<text x="${WIDTH / 2}" y="38" text-anchor="middle" fill="${GREY}">bar: ratio to the reference named under the row, median of rounds · black mark: target · red: not met, by the figure in red</text>`,
  ];
  for (let tick = 0; tick <= scaleMax + 1e-9; tick += 0.25) {
    const at = x(tick).toFixed(1);
    parts.push(
      `<line x1="${at}" y1="${TOP}" x2="${at}" y2="${bottom}" stroke="${tick === 1 ? '#888888' : '#e0e0e0'}"${tick === 1 ? ' stroke-width="2"' : ''}/>`,
      `<text x="${at}" y="${bottom + 16}" text-anchor="middle" fill="${GREY}">${tick.toFixed(2)}</text>`,
    );
  }
  parts.push(`<text x="${(LABEL_WIDTH + plotWidth / 2).toFixed(1)}" y="${bottom + 31}" text-anchor="middle" fill="${GREY}">ratio to the row's reference (1 = as fast as its reference)</text>`);
  judged.forEach((row, index) => {
    const y = TOP + index * ROW_HEIGHT;
    const target = row.target!;
    const name = row.configuration === undefined ? row.short : `${row.short} (${row.configuration})`;
    parts.push(
      `<text x="${LABEL_WIDTH - 8}" y="${y + 16}" text-anchor="end">${escapeXml(name)}</text>`,
      `<text x="${LABEL_WIDTH - 8}" y="${y + 31}" text-anchor="end" fill="${GREY}">÷ ${escapeXml(referenceName(target.against))}</text>`,
    );
    if (row.ratio !== undefined) {
      parts.push(`<rect x="${LABEL_WIDTH}" y="${y + 7}" width="${(x(row.ratio) - LABEL_WIDTH).toFixed(1)}" height="${ROW_HEIGHT - 14}" fill="${row.verdict.met ? MET : NOT_MET}"/>`);
    }
    parts.push(`<line x1="${x(target.ratio).toFixed(1)}" y1="${y + 3}" x2="${x(target.ratio).toFixed(1)}" y2="${y + ROW_HEIGHT - 3}" stroke="#000000" stroke-width="3"/>`);
    // Each figure red when it misses its part of the target, so a red bar says which part failed.
    const ratioText = row.ratio === undefined ? 'not judged' : `${row.ratio.toFixed(2)} (target ≥ ${target.ratio})`;
    parts.push(`<text x="${figuresX}" y="${y + 16}" fill="${row.ratio !== undefined && row.ratio >= target.ratio ? '#000000' : NOT_MET}">${ratioText}</text>`);
    if (target.p99Ms !== undefined) {
      parts.push(`<text x="${figuresX}" y="${y + 31}" fill="${row.p99 <= target.p99Ms ? GREY : NOT_MET}">p99 ${row.p99} ms (target ≤ ${target.p99Ms})</text>`);
    }
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
