import {
  describeFormTokenStore,
  describeOtpReplayStore,
  describeRequestRateStore,
  describeServiceRegistry,
  describeServiceSessionStore,
  describeSingleLogoutOnStores,
  describeThrottleStore,
  describeTicketStore,
  describeUserDirectory,
} from '@tessera/testkit';
import { FakeDatabase } from '@tessera/testkit/mongo';
import { createMongoStores, type MongoDatabase } from '@tessera/adapter-mongo';
import { userDocument } from './user-documents.js';

const storesOn = (database: FakeDatabase, clock = { now: () => Date.now() }) => createMongoStores(database as unknown as MongoDatabase, clock);

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
  describeThrottleStore('MongoThrottleStore (fake collection)', () => storesOn(fresh()).throttle, () => storesOn(database).throttle);
  describeOtpReplayStore('MongoOtpReplayStore (fake collection)', () => storesOn(fresh()).otpSteps, () => storesOn(database).otpSteps);
  describeRequestRateStore('MongoRequestRateStore (fake collection)', () => storesOn(fresh()).requestRates, () => storesOn(database).requestRates);
  describeServiceSessionStore('MongoServiceSessionStore (fake collection)', () => storesOn(fresh()).serviceSessions);
  describeFormTokenStore('MongoFormTokenStore (fake collection)', () => storesOn(fresh()).formTokens);
  describeSingleLogoutOnStores('mongo (fake collections)', (clock) => {
    const stores = storesOn(fresh(), clock);
    return { tickets: stores.tickets, sessions: stores.serviceSessions, registry: stores.registry };
  });
});
