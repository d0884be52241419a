import {
  describeFormTokenStore,
  describeOtpReplayStore,
  describeServiceRegistry,
  describeServiceSessionStore,
  describeSingleLogoutOnStores,
  describeThrottleStore,
  describeTicketStore,
  describeUserDirectory,
} from '@tessera/testkit';
import { FakeDatabase } from '@tessera/testkit/mongo';
import { createMongoStores, type MongoDatabase } from '@tessera/adapter-mongo';

const storesOn = (database: FakeDatabase, clock = { now: () => Date.now() }) => createMongoStores(database as unknown as MongoDatabase, clock);

// The same contracts as every adapter, with the adapter's real queries evaluated by mingo.
describe('mongo adapter on a mingo-evaluated fake database: port contracts', () => {
  describeTicketStore('MongoTicketStore (fake collection)', (clock) => storesOn(new FakeDatabase(), clock).tickets);
  describeServiceRegistry('MongoServiceRegistry (fake collection)', () => storesOn(new FakeDatabase()).registry);
  describeUserDirectory('MongoUserDirectory (fake collection)', async (users) => {
    const { users: directory } = storesOn(new FakeDatabase());
    await directory.upsert(users);
    return directory;
  });
  describeThrottleStore('MongoThrottleStore (fake collection)', () => storesOn(new FakeDatabase()).throttle);
  describeOtpReplayStore('MongoOtpReplayStore (fake collection)', () => storesOn(new FakeDatabase()).otpSteps);
  describeServiceSessionStore('MongoServiceSessionStore (fake collection)', () => storesOn(new FakeDatabase()).serviceSessions);
  describeFormTokenStore('MongoFormTokenStore (fake collection)', () => storesOn(new FakeDatabase()).formTokens);
  describeSingleLogoutOnStores('mongo (fake collections)', (clock) => {
    const stores = storesOn(new FakeDatabase(), clock);
    return { tickets: stores.tickets, sessions: stores.serviceSessions, registry: stores.registry };
  });
});
