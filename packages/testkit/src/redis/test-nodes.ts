import { randomBytes } from 'node:crypto';
import type { RedisCluster, SlotMigration } from './redis-cluster.js';

/** The client timeouts of tests on a throwaway Redis: a server that stops answering fails a test fast. */
export const REDIS_TEST_TIMEOUTS = { connectTimeoutMs: 2000, commandTimeoutMs: 2000 } as const;

/** A key prefix of its own, so a case's keys stay apart from every other case's on the same Redis (nothing is flushed). */
export function freshKeyPrefix(): string {
  return `t${randomBytes(4).toString('hex')}:`;
}

/** A connection a test opens and closes (adapter-redis's, which testkit does not know). */
export interface ClosableConnection {
  close(): Promise<void>;
}

/**
 * Two connections to one Redis that stand for two nodes, opened before the suite's tests and closed
 * after them: a case's stores run on `node(0)`, and `node(1)` opens the same keys as another node would.
 */
export function twoNodeConnections<C extends ClosableConnection>(connect: () => Promise<C>): (index: 0 | 1) => C {
  const nodes: C[] = [];
  before(async () => {
    nodes.push(await connect(), await connect());
  });
  after(async () => {
    await Promise.all(nodes.splice(0).map((connection) => connection.close()));
  });
  return (index) => {
    const node = nodes[index];
    if (node === undefined) throw new Error('the two node connections are not open');
    return node;
  };
}

/** The keys of one case in a moving slot, on the node that held it and on the one it goes to. */
export interface KeysOnEachNode {
  readonly source: string[];
  readonly target: string[];
}

/** Hash slots moved within the tests of a suite on a Redis Cluster, as `redis-cli --cluster reshard` moves them. */
export interface SlotMoves {
  /** Starts moving the slot of `key`, a move still under way finished first. */
  begin(key: string): SlotMigration;
  /** Ends the move under way, if any: every key of its slot on the new node, which owns the slot. */
  finish(): void;
  /** The keys of the moving slot that start with `prefix` (one case's), on each node. */
  onEachNode(prefix: string): KeysOnEachNode;
}

/** Slot moves on `cluster`, at most one at a time, each finished after its test whatever happened. */
export function slotMoves(cluster: () => RedisCluster): SlotMoves {
  let current: SlotMigration | undefined;
  const moves: SlotMoves = {
    begin(key) {
      moves.finish();
      current = cluster().beginMigration(key);
      return current;
    },
    finish() {
      current?.finish();
      current = undefined;
    },
    onEachNode(prefix) {
      if (current === undefined) throw new Error('no slot is being moved');
      const ours = (keys: string[]) => keys.filter((key) => key.startsWith(prefix));
      return { source: ours(current.keysOn(current.source)), target: ours(current.keysOn(current.target)) };
    },
  };
  afterEach(() => moves.finish());
  return moves;
}
