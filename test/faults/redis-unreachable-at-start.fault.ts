import { expect } from 'chai';
import { RedisServer } from '@tessera/testkit/redis';
import { clusterSettings, startNode, type Node } from '../storage/redis-nodes.js';
import { Load, until } from './support/load.js';
import { needsRedis, settle, targets } from './support/scenario.js';

/** From Redis answering to a flow through on every node (a node tries to connect at least every second). */
const RECOVERY_BOUND_MS = 5000;

const health = async (node: Node, check: 'live' | 'ready') => (await fetch(`${node.origin}/health/${check}`)).status;

// Two nodes started while their Redis is not there yet (a store that boots after the application, a
// network not up): they start, say they are not ready (the load balancer sends them nothing) while
// staying live (nothing restarts them), answer 503, and serve once Redis appears, the configured
// services written into it then.
describe('fault 4: Redis unreachable at start', function () {
  let redis: RedisServer | undefined;
  let nodes: Node[] = [];
  let prefix: string;

  before(async function () {
    needsRedis(this);
    redis = await RedisServer.launch();
    await redis.stop();
    const settings = clusterSettings(redis.url);
    prefix = (settings['storage'] as { redis: { keyPrefix: string } }).redis.keyPrefix;
    nodes = await Promise.all(['node-a', 'node-b'].map((name) => startNode(settings, name, { audit: true })));
  });
  after(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await redis?.dispose();
  });

  it(`starts unready but live, answers 503, and serves every node within ${RECOVERY_BOUND_MS / 1000} s of Redis appearing`, async () => {
    for (const node of nodes) {
      expect(await health(node, 'ready'), `${node.nodeName} ready before Redis`).to.equal(503);
      expect(await health(node, 'live'), `${node.nodeName} live before Redis`).to.equal(200);
    }
    const load = new Load(targets(nodes)).start();
    await until(() => nodes.every((node) => load.answers.some((answer) => answer.node === node.nodeName && answer.status === 503)), 'the load met the missing Redis on every node');

    await redis!.start();
    const answeringAt = Date.now();
    const recoveryMs = await load.recoveredAfter(answeringAt, 4 * RECOVERY_BOUND_MS);
    for (const node of nodes) {
      expect(await health(node, 'ready'), `${node.nodeName} ready after Redis appeared`).to.equal(200);
      expect(await health(node, 'live'), `${node.nodeName} live after Redis appeared`).to.equal(200);
    }
    expect(Number(redis!.cli('hlen', `${prefix}services`).trim()), 'configured services written once Redis appeared').to.be.above(0);
    await settle('4 Redis unreachable at start', [load], nodes, { recovery: { ms: recoveryMs, boundMs: RECOVERY_BOUND_MS } });
  });
});
