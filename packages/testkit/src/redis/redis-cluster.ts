import { spawnSync } from 'node:child_process';
import { RedisServer } from './redis-server.js';

export interface RedisClusterOptions {
  /** One replica per master (six nodes), so that a master lost is failed over; none by default. */
  readonly replicas?: boolean;
  /** `cluster-node-timeout`: how long a master may be silent before its replica takes over (2000 by default). */
  readonly nodeTimeoutMs?: number;
}

/**
 * A local Redis Cluster of three masters, with no replicas or one each: `redis-server --cluster-enabled
 * yes` on free loopback ports, joined by `redis-cli --cluster create`, every slot covered (and every
 * replica in sync) before it is used.
 */
export class RedisCluster {
  private constructor(readonly nodes: readonly RedisServer[]) {}

  static async launch(options: RedisClusterOptions = {}): Promise<RedisCluster> {
    const nodes: RedisServer[] = [];
    try {
      const count = options.replicas ? 6 : 3;
      for (let i = 0; i < count; i++) nodes.push(await RedisServer.launch({ clusterNode: true, ...(options.nodeTimeoutMs !== undefined && { clusterNodeTimeoutMs: options.nodeTimeoutMs }) }));
      const addresses = nodes.map((node) => `127.0.0.1:${node.port}`);
      const replicas = options.replicas ? '1' : '0';
      const created = spawnSync('/usr/bin/redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', replicas, '--cluster-yes'], { encoding: 'utf8', timeout: 30_000 });
      if (created.status !== 0) throw new Error(`redis-cli --cluster create failed: ${created.stderr}${created.stdout}`);
      const cluster = new RedisCluster(nodes);
      await cluster.untilEveryNodeSeesItOk();
      if (options.replicas) await cluster.untilEveryReplicaIsLinked();
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
    const to = (from + 1) % 3;
    const [source, target] = [this.nodes[from]!, this.nodes[to]!];
    target.cli('cluster', 'setslot', String(slot), 'importing', ids[from]!);
    source.cli('cluster', 'setslot', String(slot), 'migrating', ids[to]!);
    return new SlotMigration(slot, source, target, ids[to]!, this.nodes);
  }

  /** The node that serves `key` now (its slot's master), as CLUSTER NODES on a running node says. */
  masterOf(key: string): RedisServer {
    const asked = this.running()[0]!;
    const slot = Number(asked.cli('cluster', 'keyslot', key).trim());
    const owner = ownerOf(slot, asked.cli('cluster', 'nodes'));
    const master = this.nodes.find((node) => node.running && node.cli('cluster', 'myid').trim() === owner);
    if (!master) throw new Error(`no running node of this cluster serves slot ${slot}`);
    return master;
  }

  /** The replica of `master` (a cluster launched with `replicas`). */
  replicaOf(master: RedisServer): RedisServer {
    const id = master.cli('cluster', 'myid').trim();
    const replica = this.running().find((node) => node !== master && node.cli('role').startsWith(`slave\n127.0.0.1\n${master.port}\n`));
    if (!replica) throw new Error(`no replica of ${id} on port ${master.port}`);
    return replica;
  }

  /** Waits until `replica` has every write its master made so far: their replication offsets agree. */
  async untilReplicated(master: RedisServer, replica: RedisServer): Promise<void> {
    const offset = (node: RedisServer, field: string) => Number(new RegExp(`${field}:(\\d+)`).exec(node.cli('info', 'replication'))?.[1] ?? -1);
    await until(() => offset(replica, 'slave_repl_offset') >= offset(master, 'master_repl_offset'), `the replica on port ${replica.port} caught up with its master`);
  }

  /** Waits until `replica` has taken over from its lost master and every running node says cluster_state:ok. */
  async untilPromoted(replica: RedisServer, seconds = 30): Promise<void> {
    await until(() => replica.cli('role').startsWith('master\n') && this.running().every((node) => node.cli('cluster', 'info').includes('cluster_state:ok')), `the replica on port ${replica.port} took over`, seconds);
  }

  private running(): RedisServer[] {
    return this.nodes.filter((node) => node.running);
  }

  private async untilEveryNodeSeesItOk(): Promise<void> {
    await until(() => this.nodes.every((node) => node.cli('cluster', 'info').includes('cluster_state:ok')), 'the Redis Cluster reached cluster_state:ok');
  }

  private async untilEveryReplicaIsLinked(): Promise<void> {
    await until(() => this.nodes.filter((node) => node.cli('role').startsWith('slave\n')).every((node) => node.cli('role').includes('\nconnected\n')), 'every replica is linked to its master');
  }
}

/** Polls `condition` every 50 ms; fails naming `what` once `seconds` pass. */
async function until(condition: () => boolean, what: string, seconds = 15): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${seconds} s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
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
