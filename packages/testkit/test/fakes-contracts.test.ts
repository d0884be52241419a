import { RecordServiceSessionStore } from '@tessera/core/modules/login';
import { ListServiceRegistry, ListUserDirectory, MapRecordStores, MapTicketStore, describeRecordStores, describeServiceRegistry, describeTicketStore, describeUserDirectory } from '@tessera/testkit';
import { MapThrottleStore, describeThrottleStore } from '@tessera/testkit/modules/throttle';
import { describeModuleStoresOnRecords } from '@tessera/testkit/modules';
import { describeSingleLogoutOnStores } from '@tessera/testkit/modules/login';

// Unit tests run on these fakes, so they must behave as every real store does, or a test could pass on a quirk.
describe('testkit fakes: port contracts (the suites the adapters pass)', () => {
  describeTicketStore('MapTicketStore', (clock) => new MapTicketStore(clock));
  describeRecordStores('MapRecordStores', (clock) => new MapRecordStores(clock));
  describeServiceRegistry('ListServiceRegistry', () => new ListServiceRegistry());
  describeUserDirectory('ListUserDirectory', (users) => new ListUserDirectory(users));
  describeThrottleStore('MapThrottleStore', () => new MapThrottleStore());
  // The login and otp modules' stores as unit tests use them: on the records fake.
  describeModuleStoresOnRecords('MapRecordStores', (clock) => new MapRecordStores(clock));
  describeSingleLogoutOnStores('fakes', (clock) => ({ tickets: new MapTicketStore(clock), sessions: new RecordServiceSessionStore(new MapRecordStores(clock)), registry: new ListServiceRegistry() }));
});
