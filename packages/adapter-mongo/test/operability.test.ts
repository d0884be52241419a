import { expect } from 'chai';
import { MongoClient, MongoNetworkError, MongoOperationTimeoutError } from 'mongodb';
import { StoreUnavailableError } from '@tessera/core';
import { FixedClock, aRegisteredService, aServiceTicket, aTicketGrantingTicket, rejectionOf } from '@tessera/testkit';
import { FakeDatabase } from '@tessera/testkit/mongo';
import { MongoReadinessCheck, createMongoStores, mongoClientOptions, type MongoDatabase } from '@tessera/adapter-mongo';

// docs/protocol.md §10 — what the Mongo adapter sends for /health/ready and for tessera_tgts_live
describe('mongo adapter: readiness ping and live TGT count (docs/protocol.md §10)', () => {
  let database: FakeDatabase;
  beforeEach(() => {
    database = new FakeDatabase();
  });

  describe('readiness', () => {
    const check = (timeoutMs = 5000) => new MongoReadinessCheck(database as unknown as MongoDatabase, timeoutMs);

    it('pings the database, and only that, under the component name storage', async () => {
      await check().check();
      expect(check().name).to.equal('storage');
      expect(database.commands).to.deep.equal([{ ping: 1 }]);
    });

    it('a lost database fails the check as StoreUnavailableError; any other error stays itself', async () => {
      database.failEveryCall(new MongoNetworkError('connection 3 to 10.0.0.5:27017 closed'));
      const lost = await rejectionOf(check().check());
      expect(lost).to.be.instanceOf(StoreUnavailableError);
      expect((lost).message).not.to.include('10.0.0.5');
      const refused = new Error('command ping requires authentication');
      database.failEveryCall(refused);
      expect(await rejectionOf(check().check())).to.equal(refused);
    });

    it('a server that never answers is given up after the timeout, as StoreUnavailableError', async () => {
      database.stopAnswering();
      const error = await rejectionOf(check(20).check());
      expect(error).to.be.instanceOf(StoreUnavailableError);
      expect((error).message).to.equal('MongoDB did not answer a ping within 20 ms');
    });
  });

  describe('live TGT count', () => {
    it('counts live TGTs only, with the expiry filter on the indexed fields; exact at the moment of the count', async () => {
      const clock = new FixedClock();
      const tickets = createMongoStores(database as unknown as MongoDatabase, clock).tickets;
      await tickets.save(aTicketGrantingTicket(clock, { expiresAt: clock.now() + 1000 }));
      await tickets.save(aTicketGrantingTicket(clock, { expiresAt: clock.now() + 60_000 }));
      await tickets.save(aServiceTicket(clock));
      expect(await tickets.liveTgts()).to.equal(2);
      clock.advanceSeconds(2);
      expect(await tickets.liveTgts()).to.equal(1);
      expect(database.collection('tickets').argsOf('countDocuments')).to.deep.equal([
        [{ kind: 'TGT', expiresAt: { $gt: new Date(clock.now() - 2000) } }],
        [{ kind: 'TGT', expiresAt: { $gt: new Date(clock.now()) } }],
      ]);
    });

    it('a lost database fails the count as StoreUnavailableError', async () => {
      database.failEveryCall(new MongoNetworkError('connection closed'));
      const tickets = createMongoStores(database as unknown as MongoDatabase, new FixedClock()).tickets;
      expect(await rejectionOf(tickets.liveTgts())).to.be.instanceOf(StoreUnavailableError);
    });
  });

  // docs/storage.md's promise: while the database is away, a request waits at most storage.mongo.timeoutSeconds.
  describe('time limits (storage.mongo.timeoutSeconds)', () => {
    it('gives the driver the timeout for finding a server, connecting, waiting for a connection and for a reply', () => {
      const options = mongoClientOptions(7000);
      expect(options).to.deep.equal({ serverSelectionTimeoutMS: 7000, connectTimeoutMS: 7000, waitQueueTimeoutMS: 7000, socketTimeoutMS: 7000 });
      // Options the driver knows by these names (it connects only on connect()).
      const parsed = new MongoClient('mongodb://db.invalid:27017', options).options;
      expect([parsed.serverSelectionTimeoutMS, parsed.connectTimeoutMS, parsed.waitQueueTimeoutMS, parsed.socketTimeoutMS]).to.deep.equal([7000, 7000, 7000, 7000]);
    });

    it('gives up every operation on a database that stopped answering after the timeout, as StoreUnavailableError (503)', async () => {
      const clock = new FixedClock();
      const stores = createMongoStores(database as unknown as MongoDatabase, clock, '', 20);
      database.stopAnswering();
      const operations: Array<[string, () => Promise<unknown>]> = [
        ['tickets.get', () => stores.tickets.get('ST-1-x')],
        ['tickets.save', () => stores.tickets.save(aServiceTicket(clock))],
        ['tickets.consume', () => stores.tickets.consume('ST-1-x')],
        ['tickets.liveTgts', () => stores.tickets.liveTgts()],
        ['registry.list', () => stores.registry.list()],
        ['users.findByUsername', () => stores.users.findByUsername('casuser')],
        ['createIndexes', () => stores.createIndexes()],
      ];
      const failures = await Promise.all(operations.map(([, operation]) => rejectionOf(operation())));
      for (const [index, failure] of failures.entries()) {
        const name = operations[index]![0];
        expect(failure, name).to.be.instanceOf(StoreUnavailableError);
        expect(failure.cause, name).to.be.instanceOf(MongoOperationTimeoutError);
        expect((failure.cause as Error).message, name).to.equal('MongoDB did not answer within 20 ms');
      }
    });

    it('answers as before once the database answers again, and an answer in time is the answer', async () => {
      const stores = createMongoStores(database as unknown as MongoDatabase, new FixedClock(), '', 20);
      database.stopAnswering();
      expect(await rejectionOf(stores.registry.findById(1))).to.be.instanceOf(StoreUnavailableError);
      database.stopAnswering(false);
      const service = aRegisteredService({ id: 1 });
      await stores.registry.save(service);
      expect(await stores.registry.findById(1)).to.deep.equal(service);
    });
  });
});

