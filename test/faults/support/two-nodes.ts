import { RedisServer } from '@tessera/testkit/redis';
import { clusterSettings, startNode, type Node } from '../../storage/redis-nodes.js';
import { needsRedis } from './scenario.js';

export interface TwoNodesOptions {
  /** Settings over the ones the nodes share by default (clusterSettings). */
  readonly settings?: Record<string, unknown>;
  /** Stop Redis before the nodes start, so they start without it. */
  readonly redisDownAtStart?: boolean;
  /** Environment variables of node B's process (a `NODE_OPTIONS` of its own, say). */
  readonly envOfB?: Record<string, string>;
}

export interface TwoNodes {
  readonly redis: RedisServer;
  /** node-a and node-b, each writing its audit trail to a file. */
  readonly nodes: Node[];
  /** The settings both nodes were started with. */
  readonly settings: Record<string, unknown>;
}

/**
 * Two nodes on one throwaway Redis, the set-up of the scenarios about a single Redis: started before
 * the scenario (skipped, with one line, where redis-server is not installed), stopped after it, Redis last.
 * Call it inside the scenario's `describe`; what it returns gives the started nodes.
 */
export function twoNodesOnRedis({ settings: overrides = {}, redisDownAtStart = false, envOfB }: TwoNodesOptions = {}): () => TwoNodes {
  let started: TwoNodes | undefined;
  let redis: RedisServer | undefined;
  let nodes: Node[] = [];

  before(async function () {
    needsRedis(this);
    redis = await RedisServer.launch();
    if (redisDownAtStart) await redis.stop();
    const settings = { ...clusterSettings(redis.url), ...overrides };
    nodes = await Promise.all([startNode(settings, 'node-a', { audit: true }), startNode(settings, 'node-b', { audit: true, ...(envOfB !== undefined && { env: envOfB }) })]);
    started = { redis, nodes, settings };
  });
  after(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await redis?.dispose();
  });

  return () => {
    if (started === undefined) throw new Error('the two nodes on Redis have not started');
    return started;
  };
}
