import {
  FixedClock,
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
import {
  MemoryFormTokenStore,
  MemoryOtpReplayStore,
  MemoryRequestRateStore,
  MemoryServiceRegistry,
  MemoryServiceSessionStore,
  MemoryThrottleStore,
  MemoryTicketStore,
  MemoryUserDirectory,
} from '@tessera/adapter-memory';

describe('memory adapter: port contracts (docs/architecture.md §9, adapter parity)', () => {
  describeTicketStore('MemoryTicketStore', (clock) => new MemoryTicketStore(clock));
  describeServiceRegistry('MemoryServiceRegistry', () => new MemoryServiceRegistry());
  describeUserDirectory('MemoryUserDirectory', (users) => new MemoryUserDirectory(users));
  describeThrottleStore('MemoryThrottleStore', () => new MemoryThrottleStore());
  describeOtpReplayStore('MemoryOtpReplayStore', () => new MemoryOtpReplayStore());
  describeRequestRateStore('MemoryRequestRateStore', () => new MemoryRequestRateStore());
  describeServiceSessionStore('MemoryServiceSessionStore', () => new MemoryServiceSessionStore());
  describeFormTokenStore('MemoryFormTokenStore', () => new MemoryFormTokenStore(new FixedClock()));
  describeSingleLogoutOnStores('memory', (clock) => ({ tickets: new MemoryTicketStore(clock), sessions: new MemoryServiceSessionStore(), registry: new MemoryServiceRegistry() }));
});
