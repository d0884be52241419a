import { expect } from 'chai';
import { redisInstalled } from '@tessera/testkit/redis';
import type { Node } from '../../storage/redis-nodes.js';
import { lostAuditRecords } from './audit.js';
import { countByStatus, type Load, type Target } from './load.js';
import { report } from './report.js';

/** The nodes as the load addresses them. */
export const targets = (nodes: readonly Node[]): Target[] => nodes.map((node) => ({ name: node.nodeName, url: node.url }));

/** Skips the scenario, with one line, where redis-server is not installed. */
export function needsRedis(context: Mocha.Context): void {
  if (redisInstalled()) return;
  process.stdout.write('  skipped: redis-server is not installed (run scripts/install-redis.sh)\n');
  context.skip();
}

export interface Recovery {
  readonly ms: number;
  readonly boundMs: number;
}

export interface Ending {
  /** From the fault's end to the first flow through on every node, and its bound. */
  readonly recovery?: Recovery;
  /** The scenario stopped the nodes itself (their exit codes are these), rather than settle. */
  readonly exitCodes?: readonly (number | null)[];
  /** What else the scenario measured, for its line of the table. */
  readonly note?: string;
}

/**
 * Ends a scenario: stops the loads and the nodes (SIGTERM, so their audit trails are complete),
 * counts the audit records the answers promised and the files lack, reports the scenario's line,
 * then asserts what every scenario promises: no wrong answer, no lost audit record, every node alive
 * through the fault and stopped cleanly (exit 0, nothing on stderr), and recovery within its bound.
 */
export async function settle(scenario: string, loads: readonly Load[], nodes: readonly Node[], { recovery, exitCodes, note }: Ending = {}): Promise<void> {
  await Promise.all(loads.map((load) => load.stop()));
  const alive = nodes.map((node) => node.child.exitCode === null && node.child.signalCode === null);
  const exits = exitCodes ?? (await Promise.all(nodes.map((node) => node.stop())));
  const answers = loads.flatMap((load) => load.answers);
  const lost = lostAuditRecords(
    answers,
    nodes.flatMap((node) => (node.auditFile === undefined ? [] : [node.auditFile])),
  );
  const wrongAnswers = answers.filter((answer) => answer.wrong !== undefined);
  report({ scenario, sent: answers.length, byStatus: countByStatus(answers), wrong: wrongAnswers.length, lostAudit: lost.count, recoveryMs: recovery?.ms, recoveryBoundMs: recovery?.boundMs, note });

  const start = Math.min(...answers.map((answer) => answer.startedAt));
  const wrong = wrongAnswers.map(({ node, step, wrong: why, startedAt }) => `${node} ${step} at +${startedAt - start} ms: ${why}`);
  expect(wrong.slice(0, 20), `${wrong.length} wrong answers`).to.deep.equal([]);
  expect(lost.missing, 'audit records missing').to.deep.equal([]);
  for (const [index, node] of nodes.entries()) {
    if (exitCodes === undefined) expect(alive[index], `${node.nodeName} still running at the end (stderr: ${node.stderr()})`).to.equal(true);
    expect(exits[index], `${node.nodeName} exit code`).to.equal(0);
    expect(node.stderr(), `${node.nodeName} stderr`).to.equal('');
  }
  if (recovery) expect(recovery.ms, `recovery (ms) of ${scenario}`).to.be.at.most(recovery.boundMs);
}
