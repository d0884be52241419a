import { expect } from 'chai';
import { redisInstalled } from '@tessera/testkit/redis';
import type { Node } from '../../storage/redis-nodes.js';
import { lostAuditRecords } from './audit.js';
import type { Load, Target } from './load.js';
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

/**
 * Ends a scenario: stops the load and the nodes (SIGTERM, so their audit trails are complete),
 * counts the audit records the answers promised and the files lack, reports the scenario's line,
 * then asserts what every scenario promises: no wrong answer, no lost audit record, every node alive
 * through the fault and stopped cleanly (exit 0, nothing on stderr), and recovery within its bound.
 */
export async function settle(scenario: string, load: Load, nodes: readonly Node[], recovery?: Recovery): Promise<void> {
  await load.stop();
  const alive = nodes.map((node) => node.child.exitCode === null && node.child.signalCode === null);
  const exitCodes = await Promise.all(nodes.map((node) => (alive[nodes.indexOf(node)] ? node.stop() : Promise.resolve(node.child.exitCode))));
  const lost = lostAuditRecords(
    load.answers,
    nodes.flatMap((node) => (node.auditFile === undefined ? [] : [node.auditFile])),
  );
  report({ scenario, sent: load.answers.length, byStatus: load.byStatus(), wrong: load.wrong.length, lostAudit: lost.count, recoveryMs: recovery?.ms, recoveryBoundMs: recovery?.boundMs });

  const wrong = load.wrong.map(({ node, step, wrong: why, startedAt }) => `${node} ${step} at +${startedAt - load.answers[0]!.startedAt} ms: ${why}`);
  expect(wrong.slice(0, 20), `${wrong.length} wrong answers`).to.deep.equal([]);
  expect(lost.missing, 'audit records missing').to.deep.equal([]);
  for (const [index, node] of nodes.entries()) {
    expect(alive[index], `${node.nodeName} still running at the end (stderr: ${node.stderr()})`).to.equal(true);
    expect(exitCodes[index], `${node.nodeName} exit code`).to.equal(0);
    expect(node.stderr(), `${node.nodeName} stderr`).to.equal('');
  }
  if (recovery) expect(recovery.ms, `recovery (ms) of ${scenario}`).to.be.at.most(recovery.boundMs);
}
