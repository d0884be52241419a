import { expect } from 'chai';
import { MongoNetworkError, MongoNetworkTimeoutError, MongoServerError, MongoServerSelectionError, MongoTopologyClosedError, type TopologyDescription } from 'mongodb';
import { StoreUnavailableError } from '@tessera/core';
import { FixedClock, aRegisteredService, aServiceTicket } from '@tessera/testkit';
import { FakeDatabase } from '@tessera/testkit/mongo';
import { createMongoStores, type MongoDatabase } from '@tessera/adapter-mongo';

/** The driver's own error classes, as it throws them when the database is away. */
const connectivityErrors = (): Error[] => [
  new MongoNetworkError('connection 3 to 10.0.0.5:27017 closed'),
  new MongoNetworkTimeoutError('connection timed out'),
  new MongoServerSelectionError('Server selection timed out after 5000 ms', {} as TopologyDescription),
  new MongoTopologyClosedError(),
  new MongoServerError({ message: 'not primary', code: 10107, codeName: 'NotWritablePrimary' }),
  new MongoServerError({ message: 'operation was interrupted', code: 11602, codeName: 'InterruptedDueToReplStateChange' }),
  new MongoServerError({ message: 'The server is in quiesce mode and will shut down', code: 91, codeName: 'ShutdownInProgress' }),
];

async function failureOf(operation: () => Promise<unknown>): Promise<unknown> {
  try {
    await operation();
  } catch (error) {
    return error;
  }
  throw new Error('expected the operation to fail');
}

describe('mongo adapter: a lost database becomes StoreUnavailableError (503), other errors stay', () => {
  const clock = new FixedClock();
  let database: FakeDatabase;
  let stores: ReturnType<typeof createMongoStores>;

  beforeEach(() => {
    database = new FakeDatabase();
    stores = createMongoStores(database as unknown as MongoDatabase, clock);
  });

  const everyOperation = (): Array<[string, () => Promise<unknown>]> => [
    ['tickets.save', () => stores.tickets.save(aServiceTicket(clock))],
    ['tickets.get', () => stores.tickets.get('ST-1-x')],
    ['tickets.consume', () => stores.tickets.consume('ST-1-x')],
    ['tickets.touch', () => stores.tickets.touch('TGT-1-x', clock.now())],
    ['tickets.remove', () => stores.tickets.remove('TGT-1-x')],
    ['tickets.removeDescendants', () => stores.tickets.removeDescendants('TGT-1-x')],
    ['registry.save', () => stores.registry.save(aRegisteredService())],
    ['registry.findById', () => stores.registry.findById(1)],
    ['registry.list', () => stores.registry.list()],
    ['registry.remove', () => stores.registry.remove(1)],
    ['users.findByUsername', () => stores.users.findByUsername('casuser')],
    ['throttle.get', () => stores.throttle.get('ip|user')],
    ['throttle.recordFailure', () => stores.throttle.recordFailure('ip|user', clock.now(), 60_000)],
    ['throttle.lock', () => stores.throttle.lock('ip|user', clock.now(), clock.now() + 60_000)],
    ['throttle.reset', () => stores.throttle.reset('ip|user')],
    ['requestRates.take', () => stores.requestRates.take('203.0.113.9', clock.now(), 60, 1)],
    ['createIndexes', () => stores.createIndexes()],
  ];

  for (const error of connectivityErrors()) {
    it(`maps ${error.name} (${error.message}) from every operation, keeping the driver error as the cause`, async () => {
      database.failEveryCall(error);
      for (const [name, operation] of everyOperation()) {
        const failure = await failureOf(operation);
        expect(failure, name).to.be.instanceOf(StoreUnavailableError);
        expect((failure as StoreUnavailableError).code).to.equal('STORE_UNAVAILABLE');
        expect((failure as Error).cause, name).to.equal(error);
      }
    });
  }

  it('answers again as soon as the database is back', async () => {
    database.failEveryCall(new MongoNetworkError('connection reset'));
    expect(await failureOf(() => stores.registry.list())).to.be.instanceOf(StoreUnavailableError);
    database.failEveryCall(undefined);
    expect(await stores.registry.list()).to.deep.equal([]);
  });

  it('leaves a server error that is not about connectivity (duplicate key) as it is', async () => {
    const duplicate = new MongoServerError({ message: 'E11000 duplicate key error', code: 11000 });
    database.failEveryCall(duplicate);
    expect(await failureOf(() => stores.tickets.save(aServiceTicket(clock)))).to.equal(duplicate);
  });
});
