import { expect } from 'chai';
import { FixedClock } from '@tessera/testkit';
import { FakeDatabase } from '@tessera/testkit/mongo';
import { REQUEST_RATE_RETENTION_MS } from '../../../../src/modules/throttle/stores/mongo-request-rate-store.js';
import { mongoThrottleStores } from './mongo-collections.js';

const IP = '203.0.113.9';

/** The one pipeline update of a take, as the port's doc comment describes it, for a bucket of 3 refilled at 2 per second. */
const takeUpdate = (now: number) => [
  {
    $set: {
      tokens: {
        $cond: [
          { $eq: [{ $type: '$tokens' }, 'missing'] },
          3,
          { $min: [3, { $add: ['$tokens', { $divide: [{ $multiply: [{ $max: [0, { $subtract: [now, '$at'] }] }, 2] }, 1000] }] }] },
        ],
      },
      at: now,
    },
  },
  { $set: { taken: { $gte: ['$tokens', 1] } } },
  { $set: { tokens: { $cond: ['$taken', { $subtract: ['$tokens', 1] }, '$tokens'] } } },
  { $set: { expiresAt: { $add: [new Date(now + REQUEST_RATE_RETENTION_MS), { $ceil: { $divide: [{ $multiply: [{ $subtract: [3, '$tokens'] }, 1000] }, 2] } }] } } },
];

// core's RequestRateStore port on MongoDB: each take one atomic findOneAndUpdate, decided on the server
describe('MongoRequestRateStore queries', () => {
  let clock: FixedClock;
  let database: FakeDatabase;
  const store = (prefix?: string) => mongoThrottleStores(database, prefix).requestRates;
  const collection = () => database.collection('request_rates');

  beforeEach(() => {
    clock = new FixedClock();
    database = new FakeDatabase();
  });

  it('takes a token with one upserting pipeline update on the key, and stores the bucket with its expiry', async () => {
    expect(await store().take(IP, clock.now(), 3, 2)).to.equal(0);
    expect(collection().calls.map((call) => call.method)).to.deep.equal(['findOneAndUpdate']);
    expect(collection().argsOf('findOneAndUpdate')).to.deep.equal([[{ _id: IP }, takeUpdate(clock.now()), { upsert: true, returnDocument: 'after' }]]);
    // Full again half a second after the take; the TTL index may then forget it, a minute later.
    expect(collection().documents).to.deep.equal([{ _id: IP, tokens: 2, at: clock.now(), taken: true, expiresAt: new Date(clock.now() + 500 + REQUEST_RATE_RETENTION_MS) }]);
  });

  it('a refused take stores the refilled tokens and moves `at`; the answer is the wait for the next token', async () => {
    for (let i = 0; i < 3; i++) await store().take(IP, clock.now(), 3, 2);
    clock.advance(100);
    expect(await store().take(IP, clock.now(), 3, 2)).to.equal(400);
    expect(collection().argsOf('findOneAndUpdate').at(-1)).to.deep.equal([{ _id: IP }, takeUpdate(clock.now()), { upsert: true, returnDocument: 'after' }]);
    expect(collection().documents).to.deep.equal([{ _id: IP, tokens: 0.2, at: clock.now(), taken: false, expiresAt: new Date(clock.now() + 1400 + REQUEST_RATE_RETENTION_MS) }]);
  });

  it('refills nothing for a clock that went back, as the memory store, and takes `at` back with it', async () => {
    await store().take(IP, clock.now(), 3, 2);
    await store().take(IP, clock.now(), 3, 2);
    const earlier = clock.now() - 5_000;
    expect(await store().take(IP, earlier, 3, 2)).to.equal(0);
    expect(await store().take(IP, earlier, 3, 2)).to.equal(500);
    expect(collection().documents[0]).to.include({ tokens: 0, at: earlier, taken: false });
  });

  it("a take whose insert of a new key loses to another node's takes again, from the bucket that node inserted", async () => {
    const buckets = collection();
    const send = buckets.findOneAndUpdate.bind(buckets);
    let racing = true;
    buckets.findOneAndUpdate = (...args) => {
      if (!racing) return send(...args);
      racing = false;
      // The other node's take lands between this one's lookup and insert, which the server refuses.
      return send(...args).then(() => Promise.reject(Object.assign(new Error('E11000 duplicate key error collection: request_rates index: _id_'), { code: 11000 })));
    };
    expect(await store().take(IP, clock.now(), 3, 2)).to.equal(0);
    expect(buckets.documents).to.deep.equal([{ _id: IP, tokens: 1, at: clock.now(), taken: true, expiresAt: new Date(clock.now() + 1000 + REQUEST_RATE_RETENTION_MS) }]);
  });

  it('gives up on a duplicate key that does not go away, and leaves it as it is', async () => {
    const duplicate = Object.assign(new Error('E11000 duplicate key error'), { code: 11000 });
    database.failEveryCall(duplicate);
    let failure: unknown;
    await store().take(IP, clock.now(), 3, 2).catch((error: unknown) => (failure = error));
    expect(failure).to.equal(duplicate);
    expect(collection().argsOf('findOneAndUpdate')).to.have.length(3);
  });

  it('creates the TTL index on expiresAt, in the prefixed collection', async () => {
    await store('sso_').createIndexes();
    expect(database.collection('sso_request_rates').argsOf('createIndex')).to.deep.equal([[{ expiresAt: 1 }, { name: 'expiresAt_ttl', expireAfterSeconds: 0 }]]);
  });
});
