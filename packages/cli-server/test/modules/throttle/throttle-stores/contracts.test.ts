import { expect } from 'chai';
import { MongoNetworkError } from 'mongodb';
import { StoreUnavailableError } from '@tessera/core';
import { FixedClock, rejectionOf } from '@tessera/testkit';
import { describeRequestRateStore, describeThrottleStore } from '@tessera/testkit/modules/throttle';
import { FakeDatabase } from '@tessera/testkit/mongo';
import { REDIS_TEST_TIMEOUTS, describeWithRedis, describeWithRedisCluster, freshKeyPrefix, slotMoves, twoNodeConnections, type RedisServer } from '@tessera/testkit/redis';
import { guardedWithin, type MongoDatabase } from '@tessera/adapter-mongo';
import { connectRedis, type RedisConnection, type RedisSettings } from '@tessera/adapter-redis';
import { throttleSchema } from '../../../../src/modules/throttle/config.js';
import { throttleStores, type ThrottleStores } from '../../../../src/modules/throttle/stores/index.js';
import { openModuleStore, type StorageConnection } from '../../../../src/storage/module-stores.js';
import { RedisRequestRateStore } from '../../../../src/modules/throttle/stores/redis-request-rate-store.js';
import { RedisThrottleStore } from '../../../../src/modules/throttle/stores/redis-throttle-store.js';

const LIMITS = { windowMs: 60_000, threshold: 5, inFlightCap: 16 };

/** The throttle module's stores as its registration opens them, with the default settings. */
const storesOn = (connection: StorageConnection): Promise<ThrottleStores> => Promise.resolve(openModuleStore(connection, throttleStores(throttleSchema.parse({}))));

// The throttle module keeps specialised stores of its own (hot counters): the same contracts as every port, on every storage.
describe('throttle module stores in memory: port contracts', () => {
  describeThrottleStore('MemoryThrottleStore', async () => (await storesOn({ kind: 'memory' })).failures);
  describeRequestRateStore('MemoryRequestRateStore', async () => (await storesOn({ kind: 'memory' })).requestRates);
});

describe('throttle module stores on a mingo-evaluated fake MongoDB: port contracts', () => {
  // The database of the stores made last, which another node's stores open too.
  let database = new FakeDatabase();
  const on = (fake: FakeDatabase) => storesOn({ kind: 'mongo', database: fake as unknown as MongoDatabase, collectionPrefix: 'sso_', guarded: guardedWithin(5000) });
  const fresh = () => on((database = new FakeDatabase()));

  describeThrottleStore('MongoThrottleStore (fake collection)', async () => (await fresh()).failures, async () => (await on(database)).failures);
  describeRequestRateStore('MongoRequestRateStore (fake collection)', async () => (await fresh()).requestRates, async () => (await on(database)).requestRates);

  it('creates their TTL indexes when the container opens them, in the prefixed collections they always had', async () => {
    await fresh();
    expect(database.names).to.deep.equal(['sso_throttle', 'sso_request_rates']);
    for (const name of database.names) expect(database.collection(name).argsOf('createIndex'), name).to.deep.equal([[{ expiresAt: 1 }, { name: 'expiresAt_ttl', expireAfterSeconds: 0 }]]);
  });

  it('answers StoreUnavailableError (503) for every operation on a database that went away, keeping the driver error as the cause', async () => {
    const { failures, requestRates } = await fresh();
    const lost = new MongoNetworkError('connection 3 to 10.0.0.5:27017 closed');
    database.failEveryCall(lost);
    const now = Date.UTC(2026, 10, 21, 10, 0, 0);
    const operations = [
      failures.get('ip|user'),
      failures.admit('ip|user', now, { windowMs: 60_000, threshold: 5, inFlightCap: 16 }),
      failures.failed('ip|user', now + 60_000),
      failures.unjudged('ip|user', now + 60_000),
      failures.lock('ip|user', now, now + 60_000, 5),
      failures.forget('ip|user', now),
      requestRates.take('203.0.113.9', now, 60, 1),
    ];
    for (const failure of await Promise.all(operations.map((operation) => rejectionOf(operation)))) {
      expect(failure).to.be.instanceOf(StoreUnavailableError);
      expect(failure.cause).to.equal(lost);
    }
  });
});

/**
 * On Redis, two connections stand for two nodes: each case's store runs on one, and the other node
 * opens the same keys (the prefix chosen last). A fresh random prefix per store keeps the cases apart.
 */
function describeOnRedis(settings: () => RedisSettings, cli?: () => RedisServer): void {
  const node = twoNodeConnections(() => connectRedis(settings()));
  let prefix = '';
  const on = (index: 0 | 1) => storesOn({ kind: 'redis', client: node(index).client, keyPrefix: prefix });
  const fresh = () => {
    prefix = freshKeyPrefix();
    return on(0);
  };

  describeThrottleStore('RedisThrottleStore', async () => (await fresh()).failures, async () => (await on(1)).failures);
  describeRequestRateStore('RedisRequestRateStore', async () => (await fresh()).requestRates, async () => (await on(1)).requestRates);

  if (cli !== undefined) {
    it('keeps the key names of earlier versions, each key with an expiry', async () => {
      const { failures, requestRates } = await fresh();
      const now = Date.now();
      await failures.admit('203.0.113.9 casuser', now, LIMITS);
      await failures.failed('203.0.113.9 alice', (await failures.admit('203.0.113.9 alice', now, LIMITS)).windowEndsAt);
      await failures.lock('203.0.113.9 alice', now, now + 60_000, 1);
      await requestRates.take('203.0.113.9', now, 5, 1);
      const keys = cli().cli('--scan', '--pattern', `${prefix}*`).trim().split('\n').sort();
      expect(keys).to.deep.equal([`${prefix}rate:203.0.113.9`, `${prefix}throttle:203.0.113.9 alice`, `${prefix}throttle:203.0.113.9 casuser`]);
      for (const key of keys) expect(Number(cli().cli('pttl', key).trim()), key).to.be.above(0);
    });
  }
}

describeWithRedis('throttle module stores on a standalone redis-server: port contracts', (server) => {
  describeOnRedis(() => ({ url: server().url, ...REDIS_TEST_TIMEOUTS }), server);
});

describeWithRedisCluster('throttle module stores on a three-master Redis Cluster: port contracts, and while a hash slot is being moved', (cluster) => {
  describeOnRedis(() => ({ clusterNodes: cluster().urls, ...REDIS_TEST_TIMEOUTS }));

  describe('while `redis-cli --cluster reshard` moves the slot of a key', () => {
    let connection: RedisConnection;
    const moves = slotMoves(cluster);
    before(async () => {
      connection = await connectRedis({ clusterNodes: cluster().urls, ...REDIS_TEST_TIMEOUTS });
    });
    after(() => connection.close());

    it('counts attempts, locks and takes tokens with each key on the old node, then on the new one', async () => {
      const prefix = freshKeyPrefix();
      const failures = new RedisThrottleStore(connection.client, prefix);
      const requestRates = new RedisRequestRateStore(connection.client, prefix);
      const now = new FixedClock(Date.now()).now();
      // Each key exists before its slot starts moving, as on a running server.
      const cases: { key: string; prime: () => Promise<unknown>; step: (round: 0 | 1) => Promise<unknown>; expected: [unknown, unknown] }[] = [
        {
          key: failures.keyOf('203.0.113.9 casuser'),
          prime: () => failures.admit('203.0.113.9 casuser', now, LIMITS),
          step: () => failures.admit('203.0.113.9 casuser', now, LIMITS).then(({ inFlight }) => inFlight),
          expected: [2, 3],
        },
        {
          key: failures.keyOf('203.0.113.9 alice'),
          prime: () => failures.admit('203.0.113.9 alice', now, LIMITS),
          // Each round fails an attempt in a window of its own, after the last lock ended, and locks on it.
          step: (round) =>
            failures
              .admit('203.0.113.9 alice', now + round * 60_000, { ...LIMITS, windowMs: 30_000 })
              .then(({ windowEndsAt }) => failures.failed('203.0.113.9 alice', windowEndsAt))
              .then(() => failures.lock('203.0.113.9 alice', now + round * 60_000, now + (round + 1) * 60_000 - 1, 1)),
          expected: [true, true],
        },
        { key: requestRates.keyOf('203.0.113.9'), prime: () => requestRates.take('203.0.113.9', now, 2, 1), step: () => requestRates.take('203.0.113.9', now, 2, 1), expected: [0, 1000] },
      ];
      for (const { key, prime, step, expected } of cases) {
        await prime();
        const moving = moves.begin(key);
        expect(await step(0), `${key} on the old node`).to.deep.equal(expected[0]);
        expect(moves.onEachNode(prefix), key).to.deep.equal({ source: [key], target: [] });
        moving.move(key);
        expect(await step(1), `${key} on the new node`).to.deep.equal(expected[1]);
        expect(moves.onEachNode(prefix), key).to.deep.equal({ source: [], target: [key] });
        moves.finish();
      }
    });
  });
});
