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

  const limits = (threshold: number, inFlightCap = 100) => ({ windowMs: MINUTE, threshold, inFlightCap });

  it('admits an attempt in one pipeline upsert: the first opens the window, the next are one more in flight, none past the cap', async () => {
    expect(await store().admit(KEY, clock.now(), limits(5, 2))).to.deep.equal({ admitted: true, failures: 0, inFlight: 1, windowEndsAt: clock.now() + MINUTE, lockedUntil: 0, locks: 0 });
    const [[filter, pipeline, options]] = collection().argsOf('findOneAndUpdate') as [[unknown, unknown, unknown]];
    expect(filter).to.deep.equal({ _id: KEY });
    expect(pipeline, 'an aggregation pipeline: one atomic update computing from the stored document').to.be.an('array').with.length(2);
    expect(options).to.deep.equal({ upsert: true, returnDocument: 'after' });
    clock.advance(10_000);
    expect(await store().admit(KEY, clock.now(), limits(5, 2))).to.include({ admitted: true, inFlight: 2, windowEndsAt: clock.now() - 10_000 + MINUTE });
    expect(await store().admit(KEY, clock.now(), limits(5, 2))).to.include({ admitted: false, inFlight: 2 });
    expect(collection().argsOf('findOneAndUpdate'), 'one update per attempt, nothing else').to.have.length(3);
    const [stored] = await collection().find({ _id: KEY }).toArray();
    expect(stored).to.deep.include({ failures: 0, inFlight: 2, windowEndsAt: at(-10_000 + MINUTE), lockedUntil: new Date(0), locks: 0, admitted: false, expiresAt: at(MINUTE + THROTTLE_RETENTION_MS) });
  });

  it('admits no attempt once a failing key\'s failures plus attempts in flight reach the threshold; a window that ended counts nothing', async () => {
    const { windowEndsAt } = await store().admit(KEY, clock.now(), limits(2));
    await store().failed(KEY, windowEndsAt);
    expect(await store().admit(KEY, clock.now(), limits(2))).to.include({ admitted: true, failures: 1, inFlight: 1 });
    expect(await store().admit(KEY, clock.now(), limits(2))).to.include({ admitted: false, failures: 1, inFlight: 1 });
    clock.advance(MINUTE);
    expect(await store().admit(KEY, clock.now(), limits(2))).to.deep.equal({ admitted: true, failures: 0, inFlight: 1, windowEndsAt: clock.now() + MINUTE, lockedUntil: 0, locks: 0 });
  });

  it('reads a document of an earlier version (no inFlight) as none in flight', async () => {
    await collection().insertOne({ _id: KEY, failures: 1, windowEndsAt: at(MINUTE), lockedUntil: new Date(0), locks: 0, expiresAt: at(MINUTE) });
    expect(await store().admit(KEY, clock.now(), limits(2))).to.include({ admitted: true, failures: 1, inFlight: 1 });
  });

  it('admits nothing on a locked key; the first attempt after the lock opens a window and keeps the lock count', async () => {
    const { windowEndsAt } = await store().admit(KEY, clock.now(), limits(1));
    await store().failed(KEY, windowEndsAt);
    expect(await store().lock(KEY, clock.now(), clock.now() + 5 * MINUTE, 1)).to.equal(true);
    expect(await store().admit(KEY, clock.now(), limits(1))).to.include({ admitted: false, lockedUntil: clock.now() + 5 * MINUTE, locks: 1 });
    clock.advance(5 * MINUTE);
    expect(await store().admit(KEY, clock.now(), limits(1))).to.deep.equal({ admitted: true, failures: 0, inFlight: 1, windowEndsAt: clock.now() + MINUTE, lockedUntil: clock.now(), locks: 1 });
  });

  it('two nodes inserting a new key at once: the loser retries its update on the document the winner inserted', async () => {
    const [first, second] = await Promise.all([store().admit(KEY, clock.now(), limits(5)), store().admit(KEY, clock.now(), limits(5))]);
    expect([first.inFlight, second.inFlight].sort()).to.deep.equal([1, 2]);
  });

  it('settles a failure with one conditional pipeline update on the window it was admitted in only, and an unjudged attempt with one conditional $inc', async () => {
    const { windowEndsAt } = await store().admit(KEY, clock.now(), limits(5));
    await store().admit(KEY, clock.now(), limits(5));
    expect(await store().failed(KEY, windowEndsAt)).to.include({ failures: 1, inFlight: 1 });
    expect(collection().argsOf('findOneAndUpdate').at(-1)).to.deep.equal([
      { _id: KEY, windowEndsAt: at(MINUTE) },
      [{ $set: { inFlight: { $max: [{ $subtract: [{ $ifNull: ['$inFlight', 0] }, 1] }, 0] }, failures: { $add: [{ $ifNull: ['$failures', 0] }, 1] } } }],
      { returnDocument: 'after' },
    ]);
    await store().unjudged(KEY, windowEndsAt);
    expect(collection().argsOf('findOneAndUpdate').at(-1)).to.deep.equal([{ _id: KEY, windowEndsAt: at(MINUTE), inFlight: { $gt: 0 } }, { $inc: { inFlight: -1 } }, {}]);
    await store().unjudged(KEY, windowEndsAt);
    expect(await store().get(KEY)).to.include({ failures: 1, inFlight: 0 });
    expect(await store().failed(KEY, windowEndsAt + 1), 'another window').to.equal(undefined);
  });

  it('locks with one conditional update that clears the failures and keeps the window; a locked key, or one short of the failures asked, is not locked', async () => {
    const { windowEndsAt } = await store().admit(KEY, clock.now(), limits(5));
    await store().failed(KEY, windowEndsAt);
    expect(await store().lock(KEY, clock.now(), clock.now() + 5 * MINUTE, 2)).to.equal(false);
    await store().failed(KEY, (await store().admit(KEY, clock.now(), limits(5))).windowEndsAt);
    expect(await store().lock(KEY, clock.now(), clock.now() + 5 * MINUTE, 2)).to.equal(true);
    expect(collection().argsOf('findOneAndUpdate').at(-1)).to.deep.equal([
      { _id: KEY, lockedUntil: { $not: { $gt: at(0) } }, windowEndsAt: { $gt: at(0) }, failures: { $gte: 2 } },
      { $set: { lockedUntil: at(5 * MINUTE), failures: 0 }, $inc: { locks: 1 }, $max: { expiresAt: at(5 * MINUTE + THROTTLE_RETENTION_MS) } },
      {},
    ]);
    clock.advance(MINUTE);
    expect(await store().lock(KEY, clock.now(), clock.now() + 5 * MINUTE, 0)).to.equal(false);
    expect(await store().get(KEY)).to.deep.equal({ failures: 0, inFlight: 0, windowEndsAt, lockedUntil: clock.now() + 4 * MINUTE, locks: 1 });
  });

  it('forgets a key on a success with one conditional delete when nothing else is in flight, else clears it with one update', async () => {
    expect(await store().lock(KEY, clock.now(), clock.now() + MINUTE, 0)).to.equal(false);
    expect(await store().get(KEY), 'no key locked, none inserted').to.equal(undefined);
    const { windowEndsAt } = await store().admit(KEY, clock.now(), limits(5));
    const updates = collection().argsOf('findOneAndUpdate').length;
    await store().forget(KEY, clock.now(), windowEndsAt);
    expect(collection().argsOf('deleteOne')).to.deep.equal([
      [{ _id: KEY, $or: [{ windowEndsAt: { $lte: at(0) } }, { inFlight: { $not: { $gt: 0 } } }, { windowEndsAt: at(MINUTE), inFlight: { $lte: 1 } }] }],
    ]);
    expect(collection().argsOf('findOneAndUpdate'), 'deleted: nothing more').to.have.length(updates);
    expect(await store().get(KEY)).to.equal(undefined);
    // Its own and one other in flight, and a failure.
    await store().admit(KEY, clock.now(), limits(5));
    await store().admit(KEY, clock.now(), limits(5));
    await store().failed(KEY, (await store().admit(KEY, clock.now(), limits(5))).windowEndsAt);
    await store().forget(KEY, clock.now(), windowEndsAt);
    expect(collection().argsOf('findOneAndUpdate').at(-1)?.[0]).to.deep.equal({ _id: KEY });
    expect(await store().get(KEY)).to.deep.equal({ failures: 0, inFlight: 1, windowEndsAt, lockedUntil: 0, locks: 0 });
  });

  it('deletes a key an unjudged attempt leaves empty with one conditional delete, before any $inc', async () => {
    const { windowEndsAt } = await store().admit(KEY, clock.now(), limits(5));
    const updates = collection().argsOf('findOneAndUpdate').length;
    await store().unjudged(KEY, windowEndsAt);
    expect(collection().argsOf('deleteOne')).to.deep.equal([[{ _id: KEY, windowEndsAt: at(MINUTE), inFlight: { $lte: 1 }, failures: 0, locks: 0 }]]);
    expect(collection().argsOf('findOneAndUpdate'), 'deleted: nothing more').to.have.length(updates);
    expect(await store().get(KEY)).to.equal(undefined);
  });

  it('creates the TTL index on expiresAt', async () => {
    await store().createIndexes();
    expect(collection().argsOf('createIndex')).to.deep.equal([[{ expiresAt: 1 }, { name: 'expiresAt_ttl', expireAfterSeconds: 0 }]]);
  });
});
