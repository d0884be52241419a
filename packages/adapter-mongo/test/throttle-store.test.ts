import { expect } from 'chai';
import { FixedClock } from '@tessera/testkit';
import { FakeDatabase } from '@tessera/testkit/mongo';
import { THROTTLE_RETENTION_MS, createMongoStores, type MongoDatabase } from '@tessera/adapter-mongo';

const KEY = '203.0.113.7|casuser';
const MINUTE = 60_000;

// core's ThrottleStore port on MongoDB: atomic upserts, reads filtered by expiry (issue 3 §2)
describe('MongoThrottleStore', () => {
  let clock: FixedClock;
  let database: FakeDatabase;
  const store = () => createMongoStores(database as unknown as MongoDatabase, clock).throttle;
  const collection = () => database.collection('throttle');
  const at = (offset: number) => new Date(clock.now() + offset);

  beforeEach(() => {
    clock = new FixedClock();
    database = new FakeDatabase();
  });

  it('counts failures in one window with one atomic upsert each, and knows nothing of an unknown key', async () => {
    expect(await store().get(KEY)).to.equal(undefined);
    expect(await store().recordFailure(KEY, MINUTE)).to.deep.equal({ failures: 1, lockedUntil: 0, locks: 0 });
    clock.advance(10_000);
    expect(await store().recordFailure(KEY, MINUTE)).to.deep.equal({ failures: 2, lockedUntil: 0, locks: 0 });
    expect(collection().argsOf('findOneAndUpdate')[1]).to.deep.equal([
      { _id: KEY, windowEndsAt: { $gt: at(0) } },
      { $inc: { failures: 1 }, $max: { expiresAt: at(MINUTE + THROTTLE_RETENTION_MS) }, $setOnInsert: { windowEndsAt: at(MINUTE), lockedUntil: new Date(0), locks: 0 } },
      { upsert: true, returnDocument: 'after' },
    ]);
    expect(await store().get(KEY)).to.deep.equal({ failures: 2, lockedUntil: 0, locks: 0 });
  });

  it('starts a new window once the old one closed, keeping the lock count', async () => {
    await store().recordFailure(KEY, MINUTE);
    await store().lock(KEY, clock.now() + 5 * MINUTE);
    clock.advance(MINUTE);
    expect(await store().get(KEY)).to.deep.equal({ failures: 0, lockedUntil: clock.now() + 4 * MINUTE, locks: 1 });
    expect(await store().recordFailure(KEY, MINUTE)).to.deep.equal({ failures: 1, lockedUntil: clock.now() + 4 * MINUTE, locks: 1 });
    expect(collection().argsOf('findOneAndUpdate').at(-1)).to.deep.equal([
      { _id: KEY, windowEndsAt: { $lte: at(0) } },
      { $set: { failures: 1, windowEndsAt: at(MINUTE) }, $max: { expiresAt: at(MINUTE + THROTTLE_RETENTION_MS) } },
      { returnDocument: 'after' },
    ]);
  });

  it('locks with $set of lockedUntil and $inc of locks; the lock reads as 0 once it has passed', async () => {
    const until = clock.now() + 2 * MINUTE;
    expect(await store().lock(KEY, until)).to.deep.equal({ failures: 0, lockedUntil: until, locks: 1 });
    expect(await store().lock(KEY, until)).to.deep.include({ locks: 2 });
    expect(collection().argsOf('findOneAndUpdate')[0]).to.deep.equal([
      { _id: KEY },
      { $set: { lockedUntil: new Date(until) }, $inc: { locks: 1 }, $max: { expiresAt: new Date(until + THROTTLE_RETENTION_MS) }, $setOnInsert: { failures: 0, windowEndsAt: new Date(0) } },
      { upsert: true, returnDocument: 'after' },
    ]);
    clock.set(until);
    expect(await store().get(KEY)).to.deep.equal({ failures: 0, lockedUntil: 0, locks: 2 });
  });

  it('forgets a key on reset, and treats a record past its expiry as gone even before the TTL monitor runs', async () => {
    await store().lock(KEY, clock.now() + MINUTE);
    await store().reset(KEY);
    expect(await store().get(KEY)).to.equal(undefined);
    expect(collection().argsOf('deleteOne')).to.deep.equal([[{ _id: KEY }]]);

    await store().lock(KEY, clock.now() + MINUTE);
    clock.advance(MINUTE + THROTTLE_RETENTION_MS);
    expect(await store().get(KEY)).to.equal(undefined);
    expect(await store().recordFailure(KEY, MINUTE)).to.deep.equal({ failures: 1, lockedUntil: 0, locks: 0 });
  });

  it('counts each of 20 concurrent failures on one key', async () => {
    await Promise.all(Array.from({ length: 20 }, () => store().recordFailure(KEY, MINUTE)));
    expect(await store().get(KEY)).to.deep.equal({ failures: 20, lockedUntil: 0, locks: 0 });
  });

  it('creates a TTL index on expiresAt', async () => {
    await store().createIndexes();
    expect(collection().argsOf('createIndex')).to.deep.equal([[{ expiresAt: 1 }, { name: 'expiresAt_ttl', expireAfterSeconds: 0 }]]);
  });
});
