import { expect } from 'chai';
import { RedisCluster } from '@tessera/testkit/redis';
import { clusterSettings, startNode, type Node } from '../storage/redis-nodes.js';
import { Load } from './support/load.js';
import { needsRedis, settle, targets } from './support/scenario.js';

/** cluster-node-timeout: how long a master may be silent before its replica is elected in its place. */
const NODE_TIMEOUT_MS = 1000;
/** From the replica's promotion (every running node says cluster_state:ok) to a flow through on every node. */
const RECOVERY_BOUND_MS = 5000;

// A master of a Redis Cluster killed outright (SIGKILL) under two nodes and a steady load: its slots
// answer 503 until its replica takes over, nothing else changes, and a TGT written (and replicated)
// before the kill still serves afterwards.
describe('fault 1: a Redis Cluster master killed', function () {
  let cluster: RedisCluster | undefined;
  let nodes: Node[] = [];

  before(async function () {
    needsRedis(this);
    cluster = await RedisCluster.launch({ replicas: true, nodeTimeoutMs: NODE_TIMEOUT_MS });
    const settings = clusterSettings(cluster.urls);
    nodes = await Promise.all(['node-a', 'node-b'].map((name) => startNode(settings, name, { audit: true })));
  });
  after(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await cluster?.dispose();
  });

  it(`answers only 503 while the replica takes over, keeps replicated tickets, and serves every node within ${RECOVERY_BOUND_MS / 1000} s of the promotion`, async () => {
    const [a, b] = targets(nodes) as [ReturnType<typeof targets>[number], ReturnType<typeof targets>[number]];
    const load = new Load([a, b], { concurrency: 6 }).start();
    await load.untilThrough(10);

    // A TGT made before the kill, on the master that is killed, and on its replica too.
    const madeAt = Date.now();
    const tgt = await load.login(a);
    expect(tgt).to.be.a('string');
    const master = cluster!.nodes.find((node) => node.cli('--scan', '--pattern', `*ticket:*:${tgt}`).trim() !== '')!;
    const replica = cluster!.replicaOf(master);
    await cluster!.untilReplicated(master, replica);

    await master.kill();
    await cluster!.untilPromoted(replica);
    const promotedAt = Date.now();
    const recoveryMs = await load.recoveredAfter(promotedAt, 4 * RECOVERY_BOUND_MS);
    expect(load.byStatus()['503'] ?? 0, 'the load met the failover').to.be.above(0);

    const st = await load.serviceTicket(b, tgt!, madeAt);
    expect(st, 'an ST from the TGT made before the kill').to.be.a('string');
    expect((await load.validate(a, st!, { flowStartedAt: madeAt }))?.user).to.equal('casuser');
    await settle('1 Redis Cluster master killed', [load], nodes, { recovery: { ms: recoveryMs, boundMs: RECOVERY_BOUND_MS } });
  });
});
