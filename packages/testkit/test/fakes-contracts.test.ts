import {
  ListServiceRegistry,
  ListUserDirectory,
  MapRecordStores,
  MapReplayStore,
  MapServiceSessionStore,
  MapThrottleStore,
  MapTicketStore,
  describeOtpReplayStore,
  describeRecordStores,
  describeServiceRegistry,
  describeServiceSessionStore,
  describeSingleLogoutOnStores,
  describeThrottleStore,
  describeTicketStore,
  describeUserDirectory,
} from '@tessera/testkit';

// Unit tests run on these fakes, so they must behave as every real store does, or a test could pass on a quirk.
describe('testkit fakes: port contracts (the suites the adapters pass)', () => {
  describeTicketStore('MapTicketStore', (clock) => new MapTicketStore(clock));
  describeRecordStores('MapRecordStores', (clock) => new MapRecordStores(clock));
  describeServiceRegistry('ListServiceRegistry', () => new ListServiceRegistry());
  describeUserDirectory('ListUserDirectory', (users) => new ListUserDirectory(users));
  describeThrottleStore('MapThrottleStore', () => new MapThrottleStore());
  describeOtpReplayStore('MapReplayStore', () => new MapReplayStore());
  describeServiceSessionStore('MapServiceSessionStore', () => new MapServiceSessionStore());
  describeSingleLogoutOnStores('fakes', (clock) => ({ tickets: new MapTicketStore(clock), sessions: new MapServiceSessionStore(), registry: new ListServiceRegistry() }));
});
