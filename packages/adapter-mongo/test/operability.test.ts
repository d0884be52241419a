import { expect } from 'chai';
import { MongoNetworkError } from 'mongodb';
import { StoreUnavailableError } from '@tessera/core';
import { FixedClock, aServiceTicket, aTicketGrantingTicket, rejectionOf } from '@tessera/testkit';
import { FakeDatabase } from '@tessera/testkit/mongo';
import { MongoReadinessCheck, createMongoStores, type MongoDatabase } from '@tessera/adapter-mongo';

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
      // As the driver does with an AbortSignal: the command rejects with the signal's reason once it fires.
      const silent = {
        collection: () => undefined,
        command: (_command: object, { signal }: { signal: AbortSignal }) =>
          new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error))),
      };
      const error = await rejectionOf(new MongoReadinessCheck(silent as unknown as MongoDatabase, 20).check());
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
});
