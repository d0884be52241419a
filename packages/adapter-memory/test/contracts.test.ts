import { describeOtpReplayStore, describeRequestRateStore, describeServiceRegistry, describeThrottleStore, describeTicketStore, describeUserDirectory } from '@tessera/testkit';
import { MemoryOtpReplayStore, MemoryRequestRateStore, MemoryServiceRegistry, MemoryThrottleStore, MemoryTicketStore, MemoryUserDirectory } from '@tessera/adapter-memory';

describe('memory adapter: port contracts (docs/architecture.md §9, adapter parity)', () => {
  describeTicketStore('MemoryTicketStore', (clock) => new MemoryTicketStore(clock));
  describeServiceRegistry('MemoryServiceRegistry', () => new MemoryServiceRegistry());
  describeUserDirectory('MemoryUserDirectory', (users) => new MemoryUserDirectory(users));
  describeThrottleStore('MemoryThrottleStore', () => new MemoryThrottleStore());
  describeOtpReplayStore('MemoryOtpReplayStore', () => new MemoryOtpReplayStore());
  describeRequestRateStore('MemoryRequestRateStore', () => new MemoryRequestRateStore());
});
