import { expect } from 'chai';
import {
  MongoNetworkError,
  MongoNetworkTimeoutError,
  MongoOperationTimeoutError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
  MongoWriteConcernError,
  type TopologyDescription,
} from 'mongodb';
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
  new MongoOperationTimeoutError('Timed out in server selection after 5000ms'),
  // What a mongos or a replica set member answers when the shard or primary behind it cannot be reached.
  new MongoServerError({ message: 'Connection refused', code: 6, codeName: 'HostUnreachable' }),
  new MongoServerError({ message: 'Could not find host matching read preference { mode: "primary" }', code: 7, codeName: 'HostNotFound' }),
  new MongoServerError({ message: 'Request timed out', code: 89, codeName: 'NetworkTimeout' }),
  new MongoServerError({ message: 'socket exception [CONNECT_ERROR]', code: 9001, codeName: 'SocketException' }),
  new MongoServerError({ message: 'operation exceeded time limit', code: 262, codeName: 'ExceededTimeLimit' }),
  new MongoServerError({ message: 'Could not find host matching read preference { mode: "primary" } for set rs0', code: 133, codeName: 'FailedToSatisfyReadPreference' }),
  new MongoServerError({ message: 'Read concern majority reads are currently not possible.', code: 134, codeName: 'ReadConcernMajorityNotAvailableYet' }),
  // A write not replicated in time: as the driver throws it for any command whose reply carries a writeConcernError...
  new MongoWriteConcernError({ ok: 1, n: 1, writeConcernError: { code: 64, codeName: 'WriteConcernTimeout', errmsg: 'waiting for replication timed out', errInfo: { wtimeout: true } } }),
  // ...under its pre-8.1 name, by name alone...
  new MongoServerError({ message: 'waiting for replication timed out', codeName: 'WriteConcernFailed' }),
  // ...and next to a failed command's own code in its reply.
  new MongoServerError({ message: 'E11000 duplicate key error, and waiting for replication timed out', code: 11000, codeName: 'DuplicateKey', writeConcernError: { code: 64, codeName: 'WriteConcernTimeout', errmsg: 'waiting for replication timed out' } }),
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
    ['createIndexes', () => stores.createIndexes()],
  ];

  for (const error of connectivityErrors()) {
    const code = error instanceof MongoServerError ? [error.code, error.codeName].filter((part) => part !== undefined).map((part) => ` ${String(part)}`).join('') : '';
    it(`maps ${error.name}${code} (${error.message}) from every operation, keeping the driver error as the cause`, async () => {
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

  it('leaves a server error that is not about connectivity (duplicate key, a bad update, a write concern the set cannot satisfy) as it is', async () => {
    const errors = [
      new MongoServerError({ message: 'E11000 duplicate key error', code: 11000, codeName: 'DuplicateKey' }),
      new MongoServerError({ message: "Updating the path 'step' would create a conflict", code: 40, codeName: 'ConflictingUpdateOperators' }),
      new MongoWriteConcernError({ ok: 1, writeConcernError: { code: 100, codeName: 'UnsatisfiableWriteConcern', errmsg: 'Not enough data-bearing nodes' } }),
    ];
    for (const error of errors) {
      database.failEveryCall(error);
      expect(await failureOf(() => stores.tickets.save(aServiceTicket(clock))), error.message).to.equal(error);
    }
  });
});
