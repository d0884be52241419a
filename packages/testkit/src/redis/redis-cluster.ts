import { spawnSync } from 'node:child_process';
import { RedisServer } from './redis-server.js';

/**
 * A local Redis Cluster of three masters and no replicas: three `redis-server --cluster-enabled yes`
 * on free loopback ports, joined by `redis-cli --cluster create`, every slot covered before it is used.
 */
export class RedisCluster {
  private constructor(readonly nodes: readonly RedisServer[]) {}

  static async launch(): Promise<RedisCluster> {
    const nodes: RedisServer[] = [];
    try {
      for (let i = 0; i < 3; i++) nodes.push(await RedisServer.launch({ clusterNode: true }));
      const addresses = nodes.map((node) => `127.0.0.1:${node.port}`);
      const created = spawnSync('/usr/bin/redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes'], { encoding: 'utf8', timeout: 30_000 });
      if (created.status !== 0) throw new Error(`redis-cli --cluster create failed: ${created.stderr}${created.stdout}`);
      const cluster = new RedisCluster(nodes);
      await cluster.untilEveryNodeSeesItOk();
      return cluster;
    } catch (error) {
      await Promise.all(nodes.map((node) => node.dispose()));
      throw error;
    }
  }

  /** Node URLs, as `storage.redis.cluster.nodes` takes them. */
  get urls(): string[] {
    return this.nodes.map((node) => node.url);
  }

  async dispose(): Promise<void> {
    await Promise.all(this.nodes.map((node) => node.dispose()));
  }

  /**
   * Starts moving the hash slot of `key` from the master that holds it to another, as
   * `redis-cli --cluster reshard` does: IMPORTING on the new node, then MIGRATING on the old one. No
   * key moves yet; the returned migration moves them one at a time, and `finish` ends it.
   */
  beginMigration(key: string): SlotMigration {
    const slot = Number(this.nodes[0]!.cli('cluster', 'keyslot', key).trim());
    const ids = this.nodes.map((node) => node.cli('cluster', 'myid').trim());
    const owner = ownerOf(slot, this.nodes[0]!.cli('cluster', 'nodes'));
    const from = owner === undefined ? -1 : ids.indexOf(owner);
    if (from < 0) throw new Error(`no node of this cluster holds slot ${slot}`);
    const to = (from + 1) % this.nodes.length;
    const [source, target] = [this.nodes[from]!, this.nodes[to]!];
    target.cli('cluster', 'setslot', String(slot), 'importing', ids[from]!);
    source.cli('cluster', 'setslot', String(slot), 'migrating', ids[to]!);
    return new SlotMigration(slot, source, target, ids[to]!, this.nodes);
  }

  private async untilEveryNodeSeesItOk(): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (!this.nodes.every((node) => node.cli('cluster', 'info').includes('cluster_state:ok'))) {
      if (Date.now() > deadline) throw new Error('the Redis Cluster did not reach cluster_state:ok within 15 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * A hash slot half-way from one master to another: some of its keys on the old node (`source`), some
 * on the new one (`target`), as a reshard leaves it between two MIGRATE calls.
 */
export class SlotMigration {
  constructor(
    readonly slot: number,
    readonly source: RedisServer,
    readonly target: RedisServer,
    private readonly targetId: string,
    private readonly nodes: readonly RedisServer[],
  ) {}

  /** Moves one key of the slot to the new node (MIGRATE), as a reshard does. */
  move(key: string): void {
    const answer = this.source.cli('migrate', '127.0.0.1', String(this.target.port), key, '0', '5000').trim();
    if (answer !== 'OK') throw new Error(`MIGRATE ${key}: ${answer}`);
  }

  /** The keys of the slot that are on this node now, wherever the cluster routes them. */
  keysOn(node: RedisServer): string[] {
    return node
      .cli('cluster', 'getkeysinslot', String(this.slot), '10000')
      .split('\n')
      .filter((line) => line !== '')
      .sort();
  }

  /** Moves the keys left on the old node and gives the slot to the new one on every node: the cluster is whole again. */
  finish(): void {
    for (const key of this.keysOn(this.source)) this.move(key);
    for (const node of [this.target, this.source, ...this.nodes.filter((node) => node !== this.target && node !== this.source)]) {
      node.cli('cluster', 'setslot', String(this.slot), 'node', this.targetId);
    }
  }
}

/** The id of the master that serves `slot`, from a CLUSTER NODES listing (`<id> <address> <flags> … <first>-<last> …`). */
function ownerOf(slot: number, clusterNodes: string): string | undefined {
  for (const line of clusterNodes.split('\n')) {
    const [id, , flags, , , , , , ...ranges] = line.split(' ');
    if (id === undefined || flags === undefined || !flags.includes('master')) continue;
    for (const range of ranges) {
      const [first, last = first] = range.split('-').map(Number);
      if (first !== undefined && last !== undefined && first <= slot && slot <= last) return id;
    }
  }
  return undefined;
}
