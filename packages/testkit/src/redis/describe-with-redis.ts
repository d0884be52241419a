import { RedisCluster } from './redis-cluster.js';
import { RedisServer, redisInstalled, type RedisServerOptions } from './redis-server.js';

let skipNoticeShown = false;

function skipWithoutRedis(context: Mocha.Context): void {
  if (redisInstalled()) return;
  if (!skipNoticeShown) process.stdout.write('  Redis tests skipped: redis-server is not installed (run scripts/install-redis.sh)\n');
  skipNoticeShown = true;
  context.skip();
}

/**
 * A mocha suite run against a fresh standalone redis-server: launched in `before`, disposed in `after`
 * (which mocha runs even when tests fail). Without redis-server the suite is pending, with one line saying why.
 */
export function describeWithRedis(title: string, body: (server: () => RedisServer) => void, options: RedisServerOptions = {}): void {
  describe(title, function () {
    let server: RedisServer | undefined;
    before(async function () {
      skipWithoutRedis(this);
      this.timeout(20_000);
      server = await RedisServer.launch(options);
    });
    after(async () => {
      await server?.dispose();
    });
    body(() => {
      if (!server) throw new Error('redis-server is not running');
      return server;
    });
  });
}

/** As describeWithRedis, on a fresh three-master Redis Cluster. */
export function describeWithRedisCluster(title: string, body: (cluster: () => RedisCluster) => void): void {
  describe(title, function () {
    let cluster: RedisCluster | undefined;
    before(async function () {
      skipWithoutRedis(this);
      this.timeout(60_000);
      cluster = await RedisCluster.launch();
    });
    after(async () => {
      await cluster?.dispose();
    });
    body(() => {
      if (!cluster) throw new Error('the Redis Cluster is not running');
      return cluster;
    });
  });
}
