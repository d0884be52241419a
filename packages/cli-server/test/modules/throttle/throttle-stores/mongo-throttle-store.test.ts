import { expect } from 'chai';
import { FixedClock } from '@tessera/testkit';
import { FakeDatabase } from '@tessera/testkit/mongo';
import { THROTTLE_RETENTION_MS } from '../../../../src/modules/throttle/stores/mongo-throttle-store.js';
import { mongoThrottleStores } from './mongo-collections.js';

const KEY = '203.0.113.7|casuser';
const MINUTE = 60_000;

// core's ThrottleStore port on MongoDB: the exact single-document updates its doc comment names
describe('MongoThrottleStore queries', () => {
  let clock: FixedClock;
  let database: FakeDatabase;
  const store = () => mongoThrottleStores(database).failures;
  const collection = () => database.collection('throttle');
  const at = (offset: number) => new Date(clock.now() + offset);

  beforeEach(() => {
    clock = new FixedClock();
    database = new FakeDatabase();
  });

  it('a first failure: the open-window $inc matches nothing, then one upsert opens the window', async () => {
    expect(await store().recordFailure(KEY, clock.now(), MINUTE)).to.equal(1);
    expect(collection().argsOf('findOneAndUpdate')).to.deep.equal([
      [{ _id: KEY, windowEndsAt: { $gt: at(0) } }, { $inc: { failures: 1 } }, { returnDocument: 'after' }],
      [
        { _id: KEY, windowEndsAt: { $not: { $gt: at(0) } } },
        { $set: { failures: 1, windowEndsAt: at(MINUTE) }, $max: { expiresAt: at(MINUTE + THROTTLE_RETENTION_MS) }, $setOnInsert: { lockedUntil: new Date(0), locks: 0 } },
        { upsert: true, returnDocument: 'after' },
      ],
    ]);
    expect(await store().get(KEY)).to.deep.equal({ failures: 1, windowEndsAt: clock.now() + MINUTE, lockedUntil: 0, locks: 0 });
  });

  it('later failures in the window are one atomic $inc each', async () => {
    await store().recordFailure(KEY, clock.now(), MINUTE);
    clock.advance(10_000);
    expect(await store().recordFailure(KEY, clock.now(), MINUTE)).to.equal(2);
    expect(collection().argsOf('findOneAndUpdate')).to.have.length(3);
  });

  it('locks with one conditional upsert that clears the window; a locked key is not locked again', async () => {
    await store().recordFailure(KEY, clock.now(), MINUTE);
    expect(await store().lock(KEY, clock.now(), clock.now() + 5 * MINUTE)).to.equal(true);
    expect(collection().argsOf('findOneAndUpdate').at(-1)).to.deep.equal([
      { _id: KEY, lockedUntil: { $not: { $gt: at(0) } } },
      { $set: { lockedUntil: at(5 * MINUTE), failures: 0, windowEndsAt: new Date(0) }, $inc: { locks: 1 }, $max: { expiresAt: at(5 * MINUTE + THROTTLE_RETENTION_MS) } },
      { upsert: true, returnDocument: 'after' },
    ]);
    clock.advance(MINUTE);
    expect(await store().lock(KEY, clock.now(), clock.now() + 5 * MINUTE)).to.equal(false);
    expect(await store().get(KEY)).to.deep.equal({ failures: 0, windowEndsAt: 0, lockedUntil: clock.now() + 4 * MINUTE, locks: 1 });
  });

  it('a key never seen can be locked (the upsert inserts it); reset deletes it', async () => {
    expect(await store().lock(KEY, clock.now(), clock.now() + MINUTE)).to.equal(true);
    expect((await store().get(KEY))?.locks).to.equal(1);
    await store().reset(KEY);
    expect(collection().argsOf('deleteOne')).to.deep.equal([[{ _id: KEY }]]);
    expect(await store().get(KEY)).to.equal(undefined);
  });

  it('creates the TTL index on expiresAt', async () => {
    await store().createIndexes();
    expect(collection().argsOf('createIndex')).to.deep.equal([[{ expiresAt: 1 }, { name: 'expiresAt_ttl', expireAfterSeconds: 0 }]]);
  });
});
