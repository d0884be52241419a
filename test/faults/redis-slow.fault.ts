import { expect } from 'chai';
import { RedisServer } from '@tessera/testkit/redis';
import { clusterSettings, startNode, type Node } from '../storage/redis-nodes.js';
import { Load, until } from './support/load.js';
import { needsRedis, settle, targets } from './support/scenario.js';

/** storage.redis.commandTimeoutMs of the nodes (clusterSettings). */
const COMMAND_TIMEOUT_MS = 500;
/** Longer than the command timeout, several times over. */
const PAUSE_MS = 3000;
/** A request that meets the pause answers 503 within the command timeout, plus the commands before it and a loaded machine's delay. */
const ANSWER_BOUND_MS = COMMAND_TIMEOUT_MS + 1000;
/** From Redis answering again to a flow through on every node. */
const RECOVERY_BOUND_MS = 5000;

// Redis stops answering (CLIENT PAUSE ALL: connections stay open, every command waits) for longer than
// commandTimeoutMs, under two nodes and a steady load. Each request that needs it answers 503 within
// the timeout, nothing is half-written (an ST handed out always validates, once; a consumed ST never
// validates again), and the nodes serve again by themselves once Redis does.
describe('fault 3: Redis slow', function () {
  let redis: RedisServer | undefined;
  let nodes: Node[] = [];

  before(async function () {
    needsRedis(this);
    redis = await RedisServer.launch();
    const settings = clusterSettings(redis.url);
    nodes = await Promise.all(['node-a', 'node-b'].map((name) => startNode(settings, name, { audit: true })));
  });
  after(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await redis?.dispose();
  });

  it(`answers 503 within ${ANSWER_BOUND_MS} ms while Redis hangs, writes nothing by halves, and serves again by itself within ${RECOVERY_BOUND_MS / 1000} s`, async () => {
    const load = new Load(targets(nodes), { concurrency: 6 }).start();
    await load.untilThrough(10);

    const pausedAt = Date.now();
    redis!.cli('client', 'pause', String(PAUSE_MS), 'ALL');
    // Over once Redis answers a PING again (each try waits a second at most).
    await until(async () => Date.now() > pausedAt + PAUSE_MS && (await redis!.answers()), 'Redis answers again');
    const answeringAt = Date.now();
    const recoveryMs = await load.recoveredAfter(answeringAt, 4 * RECOVERY_BOUND_MS);

    const during = load.answers.filter((answer) => answer.startedAt >= pausedAt && answer.startedAt < pausedAt + PAUSE_MS);
    const unavailable = during.filter((answer) => answer.status === 503);
    expect(unavailable.length, 'requests that met the pause').to.be.above(0);
    const slow = unavailable.filter((answer) => answer.ms > ANSWER_BOUND_MS).map((answer) => `${answer.node} ${answer.step} ${answer.ms} ms`);
    expect(slow, `503s slower than ${ANSWER_BOUND_MS} ms`).to.deep.equal([]);
    const slowest = Math.max(...unavailable.map((answer) => answer.ms));
    await settle('3 Redis slow', [load], nodes, { recovery: { ms: recoveryMs, boundMs: RECOVERY_BOUND_MS }, note: `slowest 503 ${slowest} ms (bound ${ANSWER_BOUND_MS} ms)` });
  });
});
