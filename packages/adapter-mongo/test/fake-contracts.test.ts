import { cryptoRandomSource, type Clock } from '@tessera/core';
import { RecordServiceSessionStore } from '@tessera/core/modules/login';
import { describeModuleStoresOnRecords } from '@tessera/testkit/modules';
import { describeServiceRegistry, describeTicketStore, describeUserDirectory } from '@tessera/testkit';
import { describeSingleLogoutOnStores } from '@tessera/testkit/modules/login';
import { FakeDatabase } from '@tessera/testkit/mongo';
import { COLLECTIONS, MongoRecordStores, createMongoStores, guardedWithin, type MongoDatabase, type RecordDocument } from '@tessera/adapter-mongo';
import { userDocument } from './user-documents.js';

const storesOn = (database: FakeDatabase, clock: Clock = { now: () => Date.now() }) => createMongoStores(database as unknown as MongoDatabase, clock);
const recordsOn = (database: FakeDatabase, clock: Clock) =>
  new MongoRecordStores((database as unknown as MongoDatabase).collection<RecordDocument>(COLLECTIONS.records), clock, cryptoRandomSource, guardedWithin(5000));

// The same contracts as every adapter, with the adapter's real queries evaluated by mingo.
describe('mongo adapter on a mingo-evaluated fake database: port contracts', () => {
  // The database of the store made last, which another node's stores open too.
  let database = new FakeDatabase();
  const fresh = () => (database = new FakeDatabase());

  describeTicketStore('MongoTicketStore (fake collection)', (clock) => storesOn(fresh(), clock).tickets, { anotherNode: (clock) => storesOn(database, clock).tickets });
  describeServiceRegistry('MongoServiceRegistry (fake collection)', () => storesOn(fresh()).registry, () => storesOn(database).registry);
  // Users inserted as an operator does: tessera writes none.
  describeUserDirectory('MongoUserDirectory (fake collection)', async (users) => {
    const database = new FakeDatabase();
    for (const user of users) await database.collection('users').insertOne({ _id: user.username, ...userDocument(user) });
    return storesOn(database).users;
  });
  describeModuleStoresOnRecords('MongoRecordStores (fake collection)', (clock) => recordsOn(fresh(), clock), (clock) => recordsOn(database, clock));
  describeSingleLogoutOnStores('mongo (fake collections)', (clock) => {
    const stores = storesOn(fresh(), clock);
    return { tickets: stores.tickets, sessions: new RecordServiceSessionStore(recordsOn(database, clock)), registry: stores.registry };
  });
});
