import { expect } from 'chai';
import { baseConfig } from '../support/tessera.js';
import { startNode, type Node } from '../storage/redis-nodes.js';
import { Load, until } from './support/load.js';
import { settle, targets } from './support/scenario.js';

/** server.shutdownTimeoutSeconds of the node: how long requests in flight may take once it stops. */
const GRACE_SECONDS = 10;

// SIGTERM to a node serving a steady load (a rolling restart, a scale-down): the requests it had
// finish with their answers, the ones after are refused (the connection, never a 5xx), every audit
// record of an answered request is in the file, and it exits 0 within its grace period.
describe('fault 6: SIGTERM under load', function () {
  let nodes: Node[] = [];

  after(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
  });

  it(`answers every request it had, refuses the rest cleanly, loses no audit record and exits 0 within ${GRACE_SECONDS} s`, async () => {
    nodes = [await startNode(baseConfig({ modules: ['rest'], logging: { level: 'info' } }), 'stopping', { audit: true, server: { shutdownTimeoutSeconds: GRACE_SECONDS } })];
    const [node] = nodes as [Node];
    let signalledAt = Infinity;
    // A request sent once the stop began may be refused (its connection, never its answer).
    const load = new Load(targets(nodes), { concurrency: 8, tolerated: ({ status, startedAt }) => status === 0 && startedAt >= signalledAt }).start();
    await load.untilThrough(20);

    const exited = new Promise<number | null>((resolve) => node.child.once('exit', (code) => resolve(code)));
    signalledAt = Date.now();
    node.child.kill('SIGTERM');
    const exitCode = await exited;
    const stopMs = Date.now() - signalledAt;
    await until(() => load.answers.some((answer) => answer.status === 0 && answer.startedAt > signalledAt + stopMs), 'a request after the exit refused');

    const inFlight = load.answers.filter((answer) => answer.startedAt < signalledAt && answer.startedAt + answer.ms > signalledAt);
    expect(inFlight.length, 'requests in flight at SIGTERM').to.be.above(0);
    expect(stopMs, 'SIGTERM to exit (ms)').to.be.at.most(GRACE_SECONDS * 1000);
    expect(node.stdout()).to.match(/"msg":"tessera stopped"\}\n$/);
    await settle('6 SIGTERM under load', [load], nodes, { exitCodes: [exitCode], note: `exit ${exitCode} ${(stopMs / 1000).toFixed(2)} s after SIGTERM (grace ${GRACE_SECONDS} s), ${inFlight.length} requests in flight` });
  });
});
