import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { Collection } from 'mongodb';
import { cryptoRandomSource, type Clock, type RecordStores } from '@tessera/core';
import { RecordAdapter, type LostRedemption } from '@tessera/adapter-koa/modules/oidc';
import { MemoryRecordStores } from '@tessera/adapter-memory';
import { guardedWithin, MongoRecordStores, type RecordDocument } from '@tessera/adapter-mongo';
import { connectRedis, RedisKeys, RedisRecordStores, type RedisConnection } from '@tessera/adapter-redis';
import { FixedClock, SeededRandomSource } from '@tessera/testkit';
import { FakeDatabase } from '@tessera/testkit/mongo';
import { describeWithRedis, describeWithRedisCluster, type RedisCluster } from '@tessera/testkit/redis';

type StoresOf = (clock: Clock) => RecordStores;

/** How the provider factory is told of a consume that lost, without the library: a rejection naming the grant. */
class Lost extends Error {
  constructor(readonly grantId: string | undefined) {
    super(`lost a redemption of grant ${grantId}`);
  }
}
const refuseLost: LostRedemption = (grantId) => Promise.reject(new Lost(grantId));

/** What a consume came to: `won`, or the rejection it was refused with. */
const outcomeOf = (consume: Promise<void>) =>
  consume.then(
    () => 'won' as const,
    (error: unknown) => error,
  );

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
    const on = (of: StoresOf, model: string) => new RecordAdapter(model, of(clock), clock, refuseLost);

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
      const again = await outcomeOf(on(node, 'AuthorizationCode').consume('code-2'));
      expect(again).to.be.instanceOf(Lost).and.have.property('grantId', 'g2');
      expect((await on(node, 'AuthorizationCode').find('code-2'))?.['consumed']).to.equal(consumed);
    });

    for (const [model, label] of [['AuthorizationCode', 'code'], ['RefreshToken', 'refresh token']] as const) {
      it(`a ${label} consumed by two nodes at once: one consume wins, the other is reported lost with its grant`, async () => {
        await on(node, model).upsert('raced', { kind: model, grantId: 'g-raced' }, 60);
        const outcomes = await Promise.all([outcomeOf(on(node, model).consume('raced')), outcomeOf(on(other, model).consume('raced'))]);
        expect(outcomes.filter((outcome) => outcome === 'won')).to.have.length(1);
        const lost = outcomes.find((outcome) => outcome !== 'won');
        expect(lost).to.be.instanceOf(Lost).and.have.property('grantId', 'g-raced');
        expect((await on(other, model).find('raced'))?.['consumed']).to.equal(Math.floor(clock.now() / 1000));
      });
    }

    it('a consume of a code gone meanwhile (its grant revoked) is reported lost, naming no grant', async () => {
      await on(node, 'AuthorizationCode').upsert('code-gone', { kind: 'AuthorizationCode', grantId: 'g-gone' }, 60);
      await on(other, 'AuthorizationCode').revokeByGrantId('g-gone');
      const outcome = await outcomeOf(on(node, 'AuthorizationCode').consume('code-gone'));
      expect(outcome).to.be.instanceOf(Lost).and.have.property('grantId', undefined);
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

    it('a refresh rotation: the used token consumed once, its successor in the same grant, and both revoked with the grant', async () => {
      const refresh = on(node, 'RefreshToken');
      await refresh.upsert('r1', { kind: 'RefreshToken', grantId: 'g5', accountId: 'alice' }, 3600);
      await on(node, 'AccessToken').upsert('a5', { grantId: 'g5' }, 3600);
      // The rotation on another node: the used token consumed, a new one under the same grant.
      const there = on(other, 'RefreshToken');
      await there.consume('r1');
      await there.upsert('r2', { kind: 'RefreshToken', grantId: 'g5', accountId: 'alice', rotations: 1 }, 3600);
      expect(await refresh.find('r1')).to.have.property('consumed');
      expect(await refresh.find('r2')).to.not.have.property('consumed');
      await Promise.all(['RefreshToken', 'AccessToken'].map((model) => on(node, model).revokeByGrantId('g5')));
      expect(await there.find('r1')).to.equal(undefined);
      expect(await there.find('r2')).to.equal(undefined);
      expect(await on(other, 'AccessToken').find('a5')).to.equal(undefined);
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

describeWithRedisCluster('oidc RecordAdapter on a three-master Redis Cluster', (cluster: () => RedisCluster) => {
  const connections: RedisConnection[] = [];
  const keys = new RedisKeys(`oidc${randomBytes(4).toString('hex')}:`);
  before(async () => {
    const settings = { clusterNodes: cluster().urls, connectTimeoutMs: 2000, commandTimeoutMs: 2000 };
    connections.push(await connectRedis(settings), await connectRedis(settings));
  });
  after(async () => {
    await Promise.all(connections.splice(0).map((connection) => connection.close()));
  });
  const on = (index: number) => (clock: Clock) => new RedisRecordStores(connections[index]!.client, keys, clock, cryptoRandomSource);
  describeOidcAdapter('Redis Cluster, two connections for two nodes', () => ({ node: on(0), other: on(1) }));

  it("revokes a grant whose records and index sit on different masters: no key names another's slot", async () => {
    const clock = new FixedClock(Date.now());
    const tokens = new RecordAdapter('AccessToken', on(0)(clock), clock, refuseLost);
    const ids = Array.from({ length: 12 }, (_, index) => `spread-${index}`);
    for (const id of ids) await tokens.upsert(id, { grantId: 'g-spread' }, 3600);
    const masters = new Set([...ids.map((id) => keys.record('oidc.accesstoken', id)), keys.recordGroup('oidc.accesstoken', 'g-spread')].map((key) => cluster().masterOf(key).port));
    expect(masters.size, 'the masters holding the grant').to.be.greaterThan(1);
    await new RecordAdapter('AccessToken', on(1)(clock), clock, refuseLost).revokeByGrantId('g-spread');
    expect(await Promise.all(ids.map((id) => tokens.find(id)))).to.deep.equal(ids.map(() => undefined));
  });
});
