import { expect } from 'chai';
import { FixedClock } from '@tessera/testkit';
import { FakeDatabase } from '@tessera/testkit/mongo';
import { THROTTLE_RETENTION_MS } from '../../../../src/modules/throttle/stores/mongo-throttle-store.js';
import { mongoThrottleStores } from './mongo-collections.js';

const KEY = '203.0.113.7|casuser';
const MINUTE = 60_000;

// core's ThrottleStore port on MongoDB: the single-document updates its doc comment names, one per operation
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

  it('counts an attempt in one pipeline upsert: the first opens the window, the next count in it, none past the limit', async () => {
    expect(await store().countAttempt(KEY, clock.now(), MINUTE, 2)).to.deep.equal({ counted: true, failures: 1, windowEndsAt: clock.now() + MINUTE, lockedUntil: 0, locks: 0 });
    const [[filter, pipeline, options]] = collection().argsOf('findOneAndUpdate') as [[unknown, unknown, unknown]];
    expect(filter).to.deep.equal({ _id: KEY });
    expect(pipeline, 'an aggregation pipeline: one atomic update computing from the stored document').to.be.an('array').with.length(2);
    expect(options).to.deep.equal({ upsert: true, returnDocument: 'after' });
    clock.advance(10_000);
    expect(await store().countAttempt(KEY, clock.now(), MINUTE, 2)).to.include({ counted: true, failures: 2, windowEndsAt: clock.now() - 10_000 + MINUTE });
    expect(await store().countAttempt(KEY, clock.now(), MINUTE, 2)).to.include({ counted: false, failures: 2 });
    expect(collection().argsOf('findOneAndUpdate'), 'one update per attempt, nothing else').to.have.length(3);
    const [stored] = await collection().find({ _id: KEY }).toArray();
    expect(stored).to.deep.include({ failures: 2, windowEndsAt: at(-10_000 + MINUTE), lockedUntil: new Date(0), locks: 0, counted: false, expiresAt: at(MINUTE + THROTTLE_RETENTION_MS) });
  });

  it('counts nothing on a locked key; the first attempt after the lock opens a window and keeps the lock count', async () => {
    await store().countAttempt(KEY, clock.now(), MINUTE, 1);
    expect(await store().lock(KEY, clock.now(), clock.now() + 5 * MINUTE, 1)).to.equal(true);
    expect(await store().countAttempt(KEY, clock.now(), MINUTE, 1)).to.include({ counted: false, lockedUntil: clock.now() + 5 * MINUTE, locks: 1 });
    clock.advance(5 * MINUTE);
    expect(await store().countAttempt(KEY, clock.now(), MINUTE, 1)).to.deep.equal({ counted: true, failures: 1, windowEndsAt: clock.now() + MINUTE, lockedUntil: clock.now(), locks: 1 });
  });

  it('two nodes inserting a new key at once: the loser retries its update on the document the winner inserted', async () => {
    const [first, second] = await Promise.all([store().countAttempt(KEY, clock.now(), MINUTE, 5), store().countAttempt(KEY, clock.now(), MINUTE, 5)]);
    expect([first.failures, second.failures].sort()).to.deep.equal([1, 2]);
  });

  it('gives an attempt back with one conditional $inc, on the window it was counted in only', async () => {
    const { windowEndsAt } = await store().countAttempt(KEY, clock.now(), MINUTE, 5);
    await store().releaseAttempt(KEY, windowEndsAt);
    expect(collection().argsOf('findOneAndUpdate').at(-1)).to.deep.equal([{ _id: KEY, windowEndsAt: at(MINUTE), failures: { $gt: 0 } }, { $inc: { failures: -1 } }, {}]);
    expect(await store().get(KEY)).to.include({ failures: 0 });
    await store().releaseAttempt(KEY, windowEndsAt);
    expect(await store().get(KEY)).to.include({ failures: 0 });
  });

  it('locks with one conditional update that clears the window; a locked key, or one short of the attempts asked, is not locked', async () => {
    await store().countAttempt(KEY, clock.now(), MINUTE, 5);
    expect(await store().lock(KEY, clock.now(), clock.now() + 5 * MINUTE, 2)).to.equal(false);
    await store().countAttempt(KEY, clock.now(), MINUTE, 5);
    expect(await store().lock(KEY, clock.now(), clock.now() + 5 * MINUTE, 2)).to.equal(true);
    expect(collection().argsOf('findOneAndUpdate').at(-1)).to.deep.equal([
      { _id: KEY, lockedUntil: { $not: { $gt: at(0) } }, windowEndsAt: { $gt: at(0) }, failures: { $gte: 2 } },
      { $set: { lockedUntil: at(5 * MINUTE), failures: 0, windowEndsAt: new Date(0) }, $inc: { locks: 1 }, $max: { expiresAt: at(5 * MINUTE + THROTTLE_RETENTION_MS) } },
      {},
    ]);
    clock.advance(MINUTE);
    expect(await store().lock(KEY, clock.now(), clock.now() + 5 * MINUTE, 0)).to.equal(false);
    expect(await store().get(KEY)).to.deep.equal({ failures: 0, windowEndsAt: 0, lockedUntil: clock.now() + 4 * MINUTE, locks: 1 });
  });

  it('locks no key never seen (nothing is inserted); reset deletes a key', async () => {
    expect(await store().lock(KEY, clock.now(), clock.now() + MINUTE, 0)).to.equal(false);
    expect(await store().get(KEY)).to.equal(undefined);
    await store().countAttempt(KEY, clock.now(), MINUTE, 5);
    await store().reset(KEY);
    expect(collection().argsOf('deleteOne')).to.deep.equal([[{ _id: KEY }]]);
    expect(await store().get(KEY)).to.equal(undefined);
  });

  it('creates the TTL index on expiresAt', async () => {
    await store().createIndexes();
    expect(collection().argsOf('createIndex')).to.deep.equal([[{ expiresAt: 1 }, { name: 'expiresAt_ttl', expireAfterSeconds: 0 }]]);
  });
});
