import { expect } from 'chai';
import { MongoNetworkError, MongoOperationTimeoutError } from 'mongodb';
import { StoreUnavailableError } from '@tessera/core';
import { FixedClock, SeededRandomSource, describeRecordStores, rejectionOf } from '@tessera/testkit';
import { FakeDatabase, type FakeCollection } from '@tessera/testkit/mongo';
import { MongoRecordStores, RECORD_EXPIRY_MARGIN_SECONDS, guardedWithin, type RecordDocument } from '@tessera/adapter-mongo';
import type { Collection } from 'mongodb';

const MINUTE = 60_000;

let nodes = 0;
/** Stores over the collection, as one more node opens them (each node draws its own random versions). */
const storesOver = (collection: FakeCollection, clock: { now(): number }) =>
  new MongoRecordStores(collection as unknown as Collection<RecordDocument>, clock, new SeededRandomSource(`node ${(nodes += 1)}`), guardedWithin(5000));

// The same contract as every adapter, with the adapter's real queries evaluated by mingo.
describe('mongo adapter on a mingo-evaluated fake database: record stores', () => {
  // The collection of the stores made last, which another node's stores open too.
  let records = new FakeDatabase().collection('records');
  describeRecordStores(
    'MongoRecordStores (fake collection)',
    (clock) => {
      records = new FakeDatabase().collection('records');
      return storesOver(records, clock);
    },
    { anotherNode: (clock) => storesOver(records, clock) },
  );
});

// Pins every query the record stores send: what a real cluster would be asked to do.
describe('MongoRecordStores: the exact queries it sends', () => {
  let clock: FixedClock;
  let collection: FakeCollection;
  const tokens = () => storesOver(collection, clock).namespace('tokens');
  const nowDate = () => new Date(clock.now());
  const projection = { projection: { _id: 1 } };

  beforeEach(() => {
    clock = new FixedClock();
    collection = new FakeDatabase().collection('records');
  });

  it('creates a TTL index on expiresAt a margin late (garbage collection only), and partial indexes on namespace + group and namespace + dueAt', async () => {
    await storesOver(collection, clock).createIndexes();
    expect(collection.argsOf('createIndex')).to.deep.equal([
      [{ expiresAt: 1 }, { name: 'expiresAt_ttl', expireAfterSeconds: RECORD_EXPIRY_MARGIN_SECONDS }],
      [{ namespace: 1, group: 1 }, { name: 'namespace_group', partialFilterExpression: { group: { $exists: true } } }],
      [{ namespace: 1, dueAt: 1 }, { name: 'namespace_dueAt', partialFilterExpression: { dueAt: { $exists: true } } }],
    ]);
  });

  it('puts a whole record with one upsert on `<namespace>:<id>`: the value as JSON text, times as Dates, absent fields unset', async () => {
    await tokens().put('jti-1', { user: 'casuser' }, clock.now() + MINUTE, { group: 'g', dueAt: clock.now() + 1000 });
    await tokens().put('jti-1', { user: 'casuser' }, clock.now() + MINUTE);
    type Update = { $set: Record<string, unknown> };
    const [[filter, first, options], [, second]] = collection.argsOf('findOneAndUpdate') as unknown as [[unknown, Update, unknown], [unknown, Update]];
    expect(filter).to.deep.equal({ _id: 'tokens:jti-1' });
    expect(options).to.deep.equal({ upsert: true, ...projection });
    expect(first).to.deep.equal({
      $set: { namespace: 'tokens', value: '{"user":"casuser"}', version: first.$set['version'], expiresAt: new Date(clock.now() + MINUTE), group: 'g', dueAt: new Date(clock.now() + 1000) },
    });
    expect(first.$set['version']).to.match(/^[\w-]{16}$/);
    expect(second).to.deep.include({ $unset: { group: '', dueAt: '' } });
    expect(collection.documents).to.deep.equal([{ _id: 'tokens:jti-1', namespace: 'tokens', value: '{"user":"casuser"}', version: second.$set['version'], expiresAt: new Date(clock.now() + MINUTE) }]);
  });

  it('reads with expiresAt > now, so a record the TTL monitor has not removed yet stays invisible', async () => {
    await tokens().put('jti-1', 1, clock.now() + MINUTE);
    clock.advance(MINUTE);
    expect(await tokens().get('jti-1')).to.equal(undefined);
    expect(await tokens().read('jti-1')).to.equal(undefined);
    expect(collection.argsOf('findOne')).to.deep.equal([[{ _id: 'tokens:jti-1', expiresAt: { $gt: nowDate() } }], [{ _id: 'tokens:jti-1', expiresAt: { $gt: nowDate() } }]]);
    expect(collection.documents).to.have.length(1);
  });

  it('inserts with one upsert matching only a dead record, so a live one makes it a duplicate key: false', async () => {
    expect(await tokens().insert('jti-1', 1, clock.now() + MINUTE)).to.equal(true);
    expect(await tokens().insert('jti-1', 2, clock.now() + MINUTE)).to.equal(false);
    expect(collection.argsOf('findOneAndUpdate').map(([filter, , options]) => [filter, options])).to.deep.equal([
      [{ _id: 'tokens:jti-1', expiresAt: { $lte: nowDate() } }, { upsert: true, ...projection }],
      [{ _id: 'tokens:jti-1', expiresAt: { $lte: nowDate() } }, { upsert: true, ...projection }],
    ]);
    expect(collection.documents).to.have.length(1);
  });

  it('replaces with one findOneAndUpdate on id, version and expiresAt > now', async () => {
    await tokens().put('jti-1', 1, clock.now() + MINUTE);
    const { version } = (await tokens().read('jti-1'))!;
    expect(await tokens().replace('jti-1', version, 2, clock.now() + MINUTE)).to.equal(true);
    const [, [filter, , options]] = collection.argsOf('findOneAndUpdate') as unknown as [unknown, [unknown, unknown, unknown]];
    expect(filter).to.deep.equal({ _id: 'tokens:jti-1', version, expiresAt: { $gt: nowDate() } });
    expect(options).to.deep.equal(projection);
  });

  it('takes with one findOneAndDelete on id and expiresAt > now, and deletes with one deleteOne', async () => {
    await tokens().put('jti-1', 1, clock.now() + MINUTE);
    expect(await tokens().take('jti-1')).to.equal(1);
    await tokens().delete('jti-2');
    expect(collection.argsOf('findOneAndDelete')).to.deep.equal([[{ _id: 'tokens:jti-1', expiresAt: { $gt: nowDate() } }]]);
    expect(collection.argsOf('deleteOne')).to.deep.equal([[{ _id: 'tokens:jti-2' }]]);
  });

  it('finds and deletes a group by namespace and group (the namespace_group index), live ones only when finding', async () => {
    await tokens().findByGroup('TGT-1');
    await tokens().deleteGroup('TGT-1');
    expect(collection.argsOf('find')).to.deep.equal([[{ namespace: 'tokens', group: 'TGT-1', expiresAt: { $gt: nowDate() } }]]);
    expect(collection.argsOf('deleteMany')).to.deep.equal([[{ namespace: 'tokens', group: 'TGT-1' }]]);
  });

  it('finds due records by namespace and dueAt (the namespace_dueAt index), live ones, earliest first, a bounded number', async () => {
    await tokens().due(clock.now() + MINUTE, 7);
    expect(collection.argsOf('find')).to.deep.equal([[{ namespace: 'tokens', dueAt: { $lte: new Date(clock.now() + MINUTE) }, expiresAt: { $gt: nowDate() } }]]);
    expect(collection.argsOf('find.sort')).to.deep.equal([[{ dueAt: 1 }]]);
    expect(collection.argsOf('find.limit')).to.deep.equal([[7]]);
  });

  it('answers a lost database with StoreUnavailableError from every method, the driver error as the cause', async () => {
    const records = tokens();
    const lost = new MongoNetworkError('connection 3 to 10.0.0.5:27017 closed');
    collection.failWith = lost;
    for (const call of [
      () => records.put('a', 1, clock.now() + MINUTE),
      () => records.get('a'),
      () => records.insert('a', 1, clock.now() + MINUTE),
      () => records.take('a'),
      () => records.delete('a'),
      () => records.read('a'),
      () => records.replace('a', 'v', 1, clock.now() + MINUTE),
      () => records.findByGroup('g'),
      () => records.deleteGroup('g'),
      () => records.due(clock.now(), 1),
      () => storesOver(collection, clock).createIndexes(),
    ]) {
      const error = await rejectionOf(call());
      expect(error).to.be.instanceOf(StoreUnavailableError);
      expect(error.cause).to.equal(lost);
    }
  });

  it('gives up on a database that never answers after its time limit, as StoreUnavailableError', async () => {
    const records = new MongoRecordStores(collection as unknown as Collection<RecordDocument>, clock, new SeededRandomSource(), guardedWithin(20)).namespace('tokens');
    collection.silent = true;
    const error = await rejectionOf(records.take('a'));
    expect(error).to.be.instanceOf(StoreUnavailableError);
    expect(error.cause).to.be.instanceOf(MongoOperationTimeoutError);
  });
});
