import type { RowSummary } from './verdicts.js';

const WIDTH = 760;
const LABEL_WIDTH = 230;
const RIGHT_MARGIN = 70;
const ROW_HEIGHT = 30;
const TOP = 44;
const AXIS_HEIGHT = 34;
const MET = '#2e7d32';
const NOT_MET = '#c62828';

/**
 * An SVG bar chart of each judged row's ratio (green when its verdict is met, red otherwise) with
 * its target marked, and its floor where one was measured, written by the bench itself: no browser, no plotting library.
 */
export function renderPlot(rows: readonly RowSummary[], title: string): string {
  const judged = rows.filter((row) => row.target !== undefined);
  const top = Math.max(1.2, ...judged.flatMap((row) => [Number.isFinite(row.ratio) ? row.ratio : 0, row.target?.ratio ?? 0]));
  const scaleMax = Math.ceil(top * 4) / 4;
  const plotWidth = WIDTH - LABEL_WIDTH - RIGHT_MARGIN;
  const x = (ratio: number) => LABEL_WIDTH + (Math.max(0, ratio) / scaleMax) * plotWidth;
  const height = TOP + judged.length * ROW_HEIGHT + AXIS_HEIGHT;
  const bottom = TOP + judged.length * ROW_HEIGHT;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="${WIDTH / 2}" y="20" text-anchor="middle" font-size="14" font-weight="bold">${escapeXml(title)}</text>`,
    `<text x="${WIDTH / 2}" y="36" text-anchor="middle" fill="#555555">bar: ratio (median of rounds) · black mark: target · grey dashes: the row's floor · green: met, red: not met</text>`,
  ];
  for (let tick = 0; tick <= scaleMax + 1e-9; tick += 0.25) {
    const at = x(tick).toFixed(1);
    parts.push(
      `<line x1="${at}" y1="${TOP}" x2="${at}" y2="${bottom}" stroke="${tick === 1 ? '#888888' : '#e0e0e0'}"/>`,
      `<text x="${at}" y="${bottom + 16}" text-anchor="middle" fill="#555555">${tick.toFixed(2)}</text>`,
    );
  }
  parts.push(`<text x="${(LABEL_WIDTH + plotWidth / 2).toFixed(1)}" y="${bottom + 30}" text-anchor="middle" fill="#555555">ratio (baseline = 1; argon2id: raw verify rate = 1)</text>`);
  judged.forEach((row, index) => {
    const y = TOP + index * ROW_HEIGHT;
    const ratio = Number.isFinite(row.ratio) ? row.ratio : 0;
    const target = row.target!.ratio;
    const label = row.configuration === undefined ? row.short : `${row.short} (${row.configuration})`;
    parts.push(
      `<text x="${LABEL_WIDTH - 8}" y="${y + 19}" text-anchor="end">${escapeXml(label)}</text>`,
      `<rect x="${LABEL_WIDTH}" y="${y + 6}" width="${(x(ratio) - LABEL_WIDTH).toFixed(1)}" height="${ROW_HEIGHT - 12}" fill="${row.verdict.met ? MET : NOT_MET}"/>`,
      `<line x1="${x(target).toFixed(1)}" y1="${y + 2}" x2="${x(target).toFixed(1)}" y2="${y + ROW_HEIGHT - 2}" stroke="#000000" stroke-width="3"/>`,
      `<text x="${(Math.max(x(ratio), x(target)) + 6).toFixed(1)}" y="${y + 19}">${ratio.toFixed(2)} / ${target}</text>`,
    );
    if (row.floorRatio !== undefined && Number.isFinite(row.floorRatio)) {
      const at = x(row.floorRatio).toFixed(1);
      parts.push(`<line x1="${at}" y1="${y + 2}" x2="${at}" y2="${y + ROW_HEIGHT - 2}" stroke="#555555" stroke-width="2" stroke-dasharray="3,2"/>`);
    }
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
