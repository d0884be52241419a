import { expect } from 'chai';
import { cryptoRandomSource, updateRecord, type Clock } from '@tessera/core';
import { FixedClock, describeRecordStores } from '@tessera/testkit';
import { REDIS_TEST_TIMEOUTS, describeWithRedis, describeWithRedisCluster, freshKeyPrefix, slotMoves, twoNodeConnections } from '@tessera/testkit/redis';
import { EXPIRY_MARGIN_MS, RedisKeys, RedisRecordStores, connectRedis, type RedisConnection, type RedisSettings } from '@tessera/adapter-redis';

const MINUTE = 60_000;

/**
 * The RecordStores contract on Redis. Two connections stand for two nodes: each case's stores run on
 * one, and `anotherNode` opens the same keys (the prefix the factory chose last) on the other.
 */
function describeRecordContractOn(settings: () => RedisSettings): void {
  const node = twoNodeConnections(() => connectRedis(settings()));
  let prefix = '';
  const storesOn = (index: 0 | 1, clock: Clock) => new RedisRecordStores(node(index).client, new RedisKeys(prefix), clock, cryptoRandomSource);

  describeRecordStores(
    'RedisRecordStores',
    (clock) => {
      prefix = freshKeyPrefix();
      return storesOn(0, clock);
    },
    { anotherNode: (clock) => storesOn(1, clock) },
  );
}

describeWithRedis('redis adapter on a standalone redis-server: record stores', (server) => {
  describeRecordContractOn(() => ({ url: server().url, ...REDIS_TEST_TIMEOUTS }));

  describe('what Redis holds', () => {
    let connection: RedisConnection;
    let keys: RedisKeys;
    let clock: FixedClock;
    let stores: RedisRecordStores;

    before(async () => {
      connection = await connectRedis({ url: server().url, ...REDIS_TEST_TIMEOUTS });
    });
    after(() => connection.close());
    beforeEach(() => {
      keys = new RedisKeys(freshKeyPrefix());
      clock = new FixedClock(Date.now());
      stores = new RedisRecordStores(connection.client, keys, clock, cryptoRandomSource);
    });

    it('keeps a record in one hash, as JSON, whose native TTL is a margin past its expiry: garbage collection only', async () => {
      await stores.namespace('tokens').put('jti-1', { user: 'casuser' }, clock.now() + MINUTE, { group: 'g', dueAt: clock.now() + 1000 });
      const key = keys.record('tokens', 'jti-1');
      const fields = await connection.client.hgetall(key);
      expect(fields).to.deep.include({ value: '{"user":"casuser"}', expiresAt: String(clock.now() + MINUTE), group: 'g', dueAt: String(clock.now() + 1000) });
      expect(fields['version']).to.match(/^[\w-]{16}$/);
      const ttl = await connection.client.pttl(key);
      expect(ttl).to.be.within(MINUTE, MINUTE + EXPIRY_MARGIN_MS);
      expect(await connection.client.zscore(keys.recordGroup('tokens', 'g'), 'jti-1')).to.equal(String(clock.now() + MINUTE));
      expect(await connection.client.zscore(keys.recordsDue('tokens'), 'jti-1')).to.equal(String(clock.now() + 1000));
    });

    it("forgets a group's entries once the clock says their records are dead, and the whole index once every one is", async () => {
      const records = stores.namespace('sessions');
      await records.put('short', 1, clock.now() + MINUTE, { group: 'g' });
      await records.put('long', 2, clock.now() + 2 * MINUTE, { group: 'g' });
      const index = keys.recordGroup('sessions', 'g');
      expect(await connection.client.pttl(index)).to.be.within(2 * MINUTE, 2 * MINUTE + EXPIRY_MARGIN_MS);
      clock.advance(MINUTE);
      expect((await records.findByGroup('g')).map((record) => record.id)).to.deep.equal(['long']);
      expect(await connection.client.zrange(index, '0', '-1')).to.deep.equal(['long']);
    });

    it('costs one updateRecord two commands, one round trip each: HMGET, then the replace script (a group or due time adds one, before it)', async () => {
      const counters = stores.namespace<{ count: number }>('counters');
      const increment = () => updateRecord(counters, 'c', (current) => ({ value: { count: (current?.value.count ?? 0) + 1 }, expiresAt: clock.now() + MINUTE }));
      await increment(); // loads the script
      const sent: string[] = [];
      const client = connection.client as unknown as { sendCommand(command: { name: string }): unknown };
      const send = client.sendCommand.bind(client);
      client.sendCommand = (command) => {
        sent.push(command.name);
        return send(command);
      };
      try {
        await increment();
      } finally {
        client.sendCommand = send;
      }
      expect(sent).to.deep.equal(['hmget', 'evalsha']);
      expect(await counters.get('c')).to.deep.equal({ count: 2 });
    });
  });
});

describeWithRedisCluster('redis adapter on a three-master Redis Cluster: record stores', (cluster) => {
  describeRecordContractOn(() => ({ clusterNodes: cluster().urls, ...REDIS_TEST_TIMEOUTS }));

  describe('while a hash slot is being moved', () => {
    let connection: RedisConnection;
    const moves = slotMoves(cluster);

    before(async () => {
      connection = await connectRedis({ clusterNodes: cluster().urls, ...REDIS_TEST_TIMEOUTS });
    });
    after(() => connection.close());

    it('writes, reads, replaces, groups and takes records whose keys are on either node', async () => {
      const keys = new RedisKeys(freshKeyPrefix());
      const clock = new FixedClock(Date.now());
      const records = new RedisRecordStores(connection.client, keys, clock, cryptoRandomSource).namespace('moving');
      const later = clock.now() + MINUTE;
      // Two ids of one hash slot (the tag in braces): each step meets one on the old node and one on the new.
      const [a, b] = ['{t}a', '{t}b'];
      await records.put(a, 1, later, { group: 'g', dueAt: clock.now() });
      await records.put(b, 1, later, { group: 'g', dueAt: clock.now() });
      moves.begin(keys.record('moving', a)).move(keys.record('moving', a));
      expect(moves.onEachNode(keys.prefix)).to.deep.equal({ source: [keys.record('moving', b)], target: [keys.record('moving', a)] });

      expect(await records.get(a)).to.equal(1);
      expect(await records.get(b)).to.equal(1);
      expect(await updateRecord(records, a, (current) => ({ value: (current!.value as number) + 1, expiresAt: later, group: 'g', dueAt: clock.now() }))).to.deep.include({ value: 2 });
      expect(await updateRecord(records, b, (current) => ({ value: (current!.value as number) + 1, expiresAt: later, group: 'g', dueAt: clock.now() }))).to.deep.include({ value: 2 });
      expect(await records.insert(a, 9, later)).to.equal(false);
      expect((await records.findByGroup('g')).map((record) => record.id).sort()).to.deep.equal([a, b]);
      expect((await records.due(clock.now(), 10)).map((record) => record.id).sort()).to.deep.equal([a, b]);
      expect(await records.take(a)).to.equal(2);
      await records.deleteGroup('g');
      expect(await records.get(b)).to.equal(undefined);
    });
  });
});
