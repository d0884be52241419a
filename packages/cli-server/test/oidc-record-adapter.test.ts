import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { Collection } from 'mongodb';
import { cryptoRandomSource, type Clock, type RecordStores } from '@tessera/core';
import { RecordAdapter } from '@tessera/adapter-koa/modules/oidc';
import { MemoryRecordStores } from '@tessera/adapter-memory';
import { guardedWithin, MongoRecordStores, type RecordDocument } from '@tessera/adapter-mongo';
import { connectRedis, RedisKeys, RedisRecordStores, type RedisConnection } from '@tessera/adapter-redis';
import { FixedClock, SeededRandomSource } from '@tessera/testkit';
import { FakeDatabase } from '@tessera/testkit/mongo';
import { describeWithRedis } from '@tessera/testkit/redis';

type StoresOf = (clock: Clock) => RecordStores;

/**
 * node-oidc-provider's Adapter on the record stores (docs/modules/oidc.md, Storage), for any storage:
 * `node` makes one node's stores, `other` another node's over the same data.
 */
function describeOidcAdapter(name: string, stores: () => { node: StoresOf; other: StoresOf }): void {
  describe(`oidc RecordAdapter on ${name}`, () => {
    let clock: FixedClock;
    let node: StoresOf;
    let other: StoresOf;
    beforeEach(() => {
      clock = new FixedClock(Date.now());
      ({ node, other } = stores());
    });
    const on = (of: StoresOf, model: string) => new RecordAdapter(model, of(clock), clock);

    it('keeps a payload as JSON until it expires by the clock: an expired code is gone', async () => {
      const codes = on(node, 'AuthorizationCode');
      await codes.upsert('code-1', { kind: 'AuthorizationCode', grantId: 'g1', accountId: 'alice', scope: 'openid' }, 60);
      expect(await codes.find('code-1')).to.deep.include({ accountId: 'alice', grantId: 'g1' });
      clock.advance(61_000);
      expect(await codes.find('code-1')).to.equal(undefined);
    });

    it('a code issued on one node is found and consumed on another, once', async () => {
      await on(node, 'AuthorizationCode').upsert('code-2', { kind: 'AuthorizationCode', grantId: 'g2' }, 60);
      const there = on(other, 'AuthorizationCode');
      expect(await there.find('code-2')).to.not.have.property('consumed');
      await there.consume('code-2');
      const consumed: unknown = (await there.find('code-2'))?.['consumed'];
      expect(consumed).to.equal(Math.floor(clock.now() / 1000));
      clock.advance(5000);
      await on(node, 'AuthorizationCode').consume('code-2');
      expect((await on(node, 'AuthorizationCode').find('code-2'))?.['consumed']).to.equal(consumed);
    });

    it("revokes every record of a grant at once, and no other's", async () => {
      const tokens = on(node, 'AccessToken');
      await tokens.upsert('a1', { grantId: 'g3' }, 3600);
      await tokens.upsert('a2', { grantId: 'g3' }, 3600);
      await tokens.upsert('a3', { grantId: 'g4' }, 3600);
      await on(other, 'AccessToken').revokeByGrantId('g3');
      expect(await tokens.find('a1')).to.equal(undefined);
      expect(await tokens.find('a2')).to.equal(undefined);
      expect(await tokens.find('a3')).to.deep.include({ grantId: 'g4' });
    });

    it('finds a session by its uid until it is destroyed; a model without uids finds none', async () => {
      const sessions = on(node, 'Session');
      await sessions.upsert('s1', { uid: 'u1', accountId: 'alice' }, 3600);
      expect(await on(other, 'Session').findByUid('u1')).to.deep.include({ accountId: 'alice' });
      await on(other, 'Session').destroy('s1');
      expect(await sessions.findByUid('u1')).to.equal(undefined);
      expect(await sessions.find('s1')).to.equal(undefined);
      expect(await on(node, 'AccessToken').findByUid('u1')).to.equal(undefined);
    });
  });
}

describeOidcAdapter('memory', () => {
  // One process is the whole cluster: every node is the same stores.
  let shared: MemoryRecordStores | undefined;
  const node: StoresOf = (clock) => (shared ??= new MemoryRecordStores(clock));
  return { node, other: node };
});

let nodes = 0;
describeOidcAdapter('the Mongo adapter (mingo-evaluated fake)', () => {
  const records = new FakeDatabase().collection('records');
  const storesOver = (clock: Clock) =>
    new MongoRecordStores(records as unknown as Collection<RecordDocument>, clock, new SeededRandomSource(`node ${(nodes += 1)}`), guardedWithin(5000));
  return { node: storesOver, other: storesOver };
});

describeWithRedis('oidc RecordAdapter on a standalone redis-server', (server) => {
  const connections: RedisConnection[] = [];
  before(async () => {
    const settings = { url: server().url, connectTimeoutMs: 2000, commandTimeoutMs: 2000 };
    connections.push(await connectRedis(settings), await connectRedis(settings));
  });
  after(async () => {
    await Promise.all(connections.splice(0).map((connection) => connection.close()));
  });
  describeOidcAdapter('Redis, two connections for two nodes', () => {
    const keys = new RedisKeys(`oidc${randomBytes(4).toString('hex')}:`);
    const on = (index: number) => (clock: Clock) => new RedisRecordStores(connections[index]!.client, keys, clock, cryptoRandomSource);
    return { node: on(0), other: on(1) };
  });
});
