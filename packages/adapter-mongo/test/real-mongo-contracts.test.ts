import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { FixedClock, aTicketGrantingTicket, describeRecordStores, describeServiceRegistry, describeTicketStore, describeUserDirectory } from '@tessera/testkit';
import { describeModuleStoresOnRecords } from '@tessera/testkit/modules';
import { cryptoRandomSource, type Clock } from '@tessera/core';
import { COLLECTIONS, MongoReadinessCheck, MongoRecordStores, connectMongo, createMongoStores, guardedWithin, type MongoConnection, type RecordDocument, type UserDocument } from '@tessera/adapter-mongo';
import type { Db } from 'mongodb';
import { userDocument } from './user-documents.js';

const uri = process.env.MONGODB_URI;

if (uri === undefined || uri === '') {
  // Pending, not passed: no MongoDB server can run on the build machines. The one line covers the
  // two-node test in test/storage too, which registers nothing without MONGODB_URI.
  it('MongoDB suites SKIPPED (port contracts, two nodes): MONGODB_URI is not set (run MONGODB_URI=mongodb://host:27017 pnpm test)');
} else {
  describe('mongo adapter against a real MongoDB (MONGODB_URI): port contracts', () => {
    let connection: MongoConnection;
    let db: Db;
    // Collections of their own (a random prefix), dropped afterwards, so runs never see each other's data.
    const prefix = `t${randomBytes(4).toString('hex')}_`;
    const clean = async (name: string): Promise<void> => {
      await db.collection(prefix + name).deleteMany({});
    };
    const recordStores = (clock: Clock) => new MongoRecordStores(db.collection<RecordDocument>(prefix + COLLECTIONS.records), clock, cryptoRandomSource, guardedWithin(5000));

    before(async () => {
      connection = await connectMongo(uri, 5000);
      db = connection.client.db('tessera_contract_tests');
      await createMongoStores(db, { now: () => Date.now() }, prefix).createIndexes();
      await recordStores({ now: () => Date.now() }).createIndexes();
    });
    after(async () => {
      for (const name of Object.values(COLLECTIONS)) await db.collection(prefix + name).drop().catch(() => undefined);
      await connection.close();
    });

    describeTicketStore('MongoTicketStore', (clock) => createMongoStores(db, clock, prefix).tickets, {
      afterEach: () => clean(COLLECTIONS.tickets),
      anotherNode: (clock) => createMongoStores(db, clock, prefix).tickets,
    });
    describeServiceRegistry('MongoServiceRegistry', async () => {
      await clean(COLLECTIONS.services);
      return createMongoStores(db, { now: () => Date.now() }, prefix).registry;
    }, () => createMongoStores(db, { now: () => Date.now() }, prefix).registry);
    describeUserDirectory('MongoUserDirectory', async (users) => {
      await clean(COLLECTIONS.users);
      // Inserted as an operator does: tessera writes none.
      if (users.length > 0) await db.collection<UserDocument>(prefix + COLLECTIONS.users).insertMany(users.map(userDocument));
      return createMongoStores(db, { now: () => Date.now() }, prefix).users;
    });
    describeModuleStoresOnRecords(
      'MongoRecordStores',
      async (clock) => {
        await clean(COLLECTIONS.records);
        return recordStores(clock);
      },
      recordStores,
    );
    describeRecordStores(
      'MongoRecordStores',
      async (clock) => {
        await clean(COLLECTIONS.records);
        return recordStores(clock);
      },
      { anotherNode: recordStores },
    );

    // docs/protocol.md §10: the readiness ping and the live TGT count, on a real server
    it('answers the readiness ping, and counts live TGTs only', async () => {
      await new MongoReadinessCheck(db, 5000).check();
      await clean(COLLECTIONS.tickets);
      const clock = new FixedClock(Date.now());
      const tickets = createMongoStores(db, clock, prefix).tickets;
      await tickets.save(aTicketGrantingTicket(clock, { expiresAt: clock.now() + 1000 }));
      await tickets.save(aTicketGrantingTicket(clock, { expiresAt: clock.now() + 60_000 }));
      clock.advanceSeconds(2);
      expect(await tickets.liveTgts()).to.equal(1);
      await clean(COLLECTIONS.tickets);
    });
  });
}
