import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { cryptoRandomSource } from '@tessera/core';
import { RecordServiceSessionStore } from '@tessera/core/modules/login';
import { FixedClock, aTicketGrantingTicket, describeServiceRegistry, describeTicketStore, describeUserDirectory } from '@tessera/testkit';
import { describeModuleStoresOnRecords } from '@tessera/testkit/modules';
import { describeSingleLogoutOnStores } from '@tessera/testkit/modules/login';
import { describeWithRedis, describeWithRedisCluster } from '@tessera/testkit/redis';
import { RedisKeys, RedisRecordStores, connectRedis, createRedisStores, type RedisConnection, type RedisSettings } from '@tessera/adapter-redis';
import { userFields } from './user-fields.js';

const systemClock = { now: () => Date.now() };

/**
 * Every port's contract on Redis. Two connections stand for two nodes: each case's store runs on one,
 * and `anotherNode` opens the same keys (the prefix the factory chose last) on the other. A fresh
 * random prefix per store keeps the cases apart on one server.
 */
function describeContractsOn(settings: () => RedisSettings): void {
  const nodes: RedisConnection[] = [];
  let prefix = '';
  const fresh = () => (prefix = `t${randomBytes(4).toString('hex')}:`);
  const node = (index: number) => nodes[index]!.client;
  const storesOn = (index: number, clock: FixedClock | typeof systemClock = systemClock) => createRedisStores(node(index), clock, prefix);
  const recordsOn = (index: number, clock: FixedClock | typeof systemClock) => new RedisRecordStores(node(index), new RedisKeys(prefix), clock, cryptoRandomSource);

  before(async () => {
    nodes.push(await connectRedis(settings()), await connectRedis(settings()));
  });
  after(async () => {
    await Promise.all(nodes.splice(0).map((connection) => connection.close()));
  });

  describeTicketStore('RedisTicketStore', (clock) => (fresh(), storesOn(0, clock).tickets), { anotherNode: (clock) => storesOn(1, clock).tickets });
  // Written through one node as an operator does (tessera writes none), looked up through the other.
  describeUserDirectory('RedisUserDirectory', async (users) => {
    const keys = new RedisKeys(fresh());
    for (const user of users) await node(0).hset(keys.user(user.username), ...userFields(user));
    return storesOn(1).users;
  });
  describeServiceRegistry('RedisServiceRegistry', () => (fresh(), storesOn(0).registry), () => storesOn(1).registry);
  describeModuleStoresOnRecords('RedisRecordStores', (clock) => (fresh(), recordsOn(0, clock)), (clock) => recordsOn(1, clock));
  describeSingleLogoutOnStores('redis', (clock) => {
    fresh();
    const { tickets, registry } = storesOn(0, clock);
    return { tickets, sessions: new RecordServiceSessionStore(recordsOn(0, clock)), registry };
  });

  it('answers the readiness check, and counts the live TGTs any node saved', async () => {
    fresh();
    const clock = new FixedClock(Date.now());
    await storesOn(0, clock).readiness.check();
    await storesOn(0, clock).tickets.save(aTicketGrantingTicket(clock));
    await storesOn(1, clock).tickets.save(aTicketGrantingTicket(clock, { expiresAt: clock.now() + 1000 }));
    expect(await storesOn(1, clock).tickets.liveTgts()).to.equal(2);
    clock.advance(1000);
    expect(await storesOn(0, clock).tickets.liveTgts()).to.equal(1);
  });
}

const timeouts = { connectTimeoutMs: 2000, commandTimeoutMs: 2000 };

describeWithRedis('redis adapter on a standalone redis-server: port contracts', (server) => {
  describeContractsOn(() => ({ url: server().url, ...timeouts }));
});

describeWithRedisCluster('redis adapter on a three-master Redis Cluster: port contracts', (cluster) => {
  describeContractsOn(() => ({ clusterNodes: cluster().urls, ...timeouts }));
});
