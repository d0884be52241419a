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

  private async untilEveryNodeSeesItOk(): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (!this.nodes.every((node) => node.cli('cluster', 'info').includes('cluster_state:ok'))) {
      if (Date.now() > deadline) throw new Error('the Redis Cluster did not reach cluster_state:ok within 15 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
