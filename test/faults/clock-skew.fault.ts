import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { RedisServer } from '@tessera/testkit/redis';
import { clusterSettings, startNode, type Node } from '../storage/redis-nodes.js';
import { Load, until } from './support/load.js';
import { needsRedis, settle, targets } from './support/scenario.js';

/** Node B's clock is this far ahead of node A's. */
const SKEW_MS = 2000;
/** A TGT's lifetime here (tickets.tgt.timeToKillSeconds and maxTimeToLiveSeconds), short so that it expires during the test. */
const TGT_SECONDS = 4;
/** How often each node is asked whether a TGT is still there, and the answer's own delay on a loaded machine. */
const POLL_TOLERANCE_MS = 300;
const SKEW_PRELOAD = fileURLToPath(new URL('support/clock-skew.mjs', import.meta.url));

const alive = async (node: Node, tgt: string) => (await fetch(`${node.url}/v1/tickets/${tgt}`)).status === 200;

/** Asks both nodes about `tgt` until both say it is gone: when each first did. */
async function expiries(nodes: readonly Node[], tgt: string): Promise<number[]> {
  const seen: (number | undefined)[] = nodes.map(() => undefined);
  await until(
    async () => {
      await Promise.all(nodes.map(async (node, index) => (seen[index] ??= (await alive(node, tgt)) ? undefined : Date.now())));
      return seen.every((at) => at !== undefined);
    },
    `${tgt.slice(0, 8)}… expired on both nodes`,
    TGT_SECONDS * 3,
  );
  return seen as number[];
}

// Two nodes on one Redis, node B's clock 2 s ahead of A's: each judges expiry by its own clock against
// the expiresAt the issuing node wrote with its own, so a ticket's end differs between the nodes by the
// skew and no more (docs/operations.md, several nodes); the flows of a steady load go through all along.
describe('fault 7: two nodes, one store, one clock skewed', function () {
  let redis: RedisServer | undefined;
  let nodes: Node[] = [];

  before(async function () {
    needsRedis(this);
    redis = await RedisServer.launch();
    const settings = { ...clusterSettings(redis.url), tickets: { tgt: { timeToKillSeconds: TGT_SECONDS, maxTimeToLiveSeconds: TGT_SECONDS } } };
    const skewed = { NODE_OPTIONS: `--import ${SKEW_PRELOAD}`, TEST_CLOCK_SKEW_MS: String(SKEW_MS) };
    nodes = await Promise.all([startNode(settings, 'node-a', { audit: true }), startNode(settings, 'node-b', { audit: true, env: skewed })]);
  });
  after(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await redis?.dispose();
  });

  it(`a ticket ends on the two nodes at most the skew (${SKEW_MS} ms) apart, whichever node issued it`, async () => {
    const [a, b] = targets(nodes) as [ReturnType<typeof targets>[number], ReturnType<typeof targets>[number]];
    const load = new Load([a, b]).start();
    await load.untilThrough(10);

    const [fromA, fromB] = [await load.login(a), await load.login(b)];
    const [endsOfA, endsOfB] = await Promise.all([expiries(nodes, fromA!), expiries(nodes, fromB!)]);
    // B, ahead, sees each end first; by the skew, give or take the polling.
    for (const [issuer, [onA, onB]] of [['A', endsOfA], ['B', endsOfB]] as const) {
      // At most the skew (the promise), and clearly more than nothing (the skew is there).
      expect(onA! - onB!, `a TGT of ${issuer}: A saw its end this long after B (ms)`).to.be.within(SKEW_MS / 2, SKEW_MS + POLL_TOLERANCE_MS);
    }
    const apart = (ends: number[]) => `${((ends[0]! - ends[1]!) / 1000).toFixed(2)} s`;
    await settle('7 one clock skewed 2 s', [load], nodes, { note: `a TGT ends ${apart(endsOfA)} (issued on A) and ${apart(endsOfB)} (on B) apart; skew ${SKEW_MS / 1000} s` });
  });
});
