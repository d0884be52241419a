/** One scenario's line of the table `pnpm test:faults` prints at its end. */
export interface ScenarioReport {
  readonly scenario: string;
  readonly sent: number;
  /** Answers by status (`0`: no answer). */
  readonly byStatus: Record<string, number>;
  readonly wrong: number;
  readonly lostAudit: number;
  /** From the fault's end to the first flow through on every node; none where nothing has to recover. */
  readonly recoveryMs?: number | undefined;
  readonly recoveryBoundMs?: number | undefined;
  /** What else the scenario measured (the time to exit, how far apart a ticket ends). */
  readonly note?: string | undefined;
}

const reports: ScenarioReport[] = [];

/** Records a scenario's figures for the table (before its assertions, so a failing one shows too). */
export function report(line: ScenarioReport): void {
  reports.push(line);
}

function table(): string {
  const rows = [...reports].sort((x, y) => x.scenario.localeCompare(y.scenario, 'en', { numeric: true })).map((line) => [
    line.scenario,
    String(line.sent),
    Object.entries(line.byStatus)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([status, count]) => `${status === '0' ? 'none' : status}:${count}`)
      .join(' '),
    String(line.wrong),
    String(line.lostAudit),
    line.recoveryMs === undefined ? '-' : `${(line.recoveryMs / 1000).toFixed(2)} s (bound ${(line.recoveryBoundMs ?? 0) / 1000} s)`,
    line.note ?? '',
  ]);
  const header = ['scenario', 'requests', 'answers by status', 'wrong', 'lost audit', 'recovery', 'measured'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const format = (row: string[]) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd();
  return [format(header), ...rows.map(format)].join('\n');
}

/** Root hooks of `pnpm test:faults` (its .mocharc `require`): the table once every scenario has run. */
export const mochaHooks = {
  afterAll(): void {
    if (reports.length > 0) process.stdout.write(`\n  Fault scenarios\n${table().replace(/^/gm, '  ')}\n\n`);
  },
};
