export { RedisServer, redisInstalled, type RedisServerOptions } from './redis-server.js';
export { RedisCluster, SlotMigration, type RedisClusterOptions } from './redis-cluster.js';
export { describeWithRedis, describeWithRedisCluster } from './describe-with-redis.js';
