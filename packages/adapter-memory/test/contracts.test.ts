import { RecordServiceSessionStore } from '@tessera/core/modules/login';
import { describeModuleStoresOnRecords } from '@tessera/testkit/modules';
import { describeServiceRegistry, describeTicketStore, describeUserDirectory } from '@tessera/testkit';
import { describeSingleLogoutOnStores } from '@tessera/testkit/modules/login';
import {
  MemoryRecordStores,
  MemoryServiceRegistry,
  MemoryTicketStore,
  MemoryUserDirectory,
} from '@tessera/adapter-memory';

describe('memory adapter: port contracts (docs/architecture.md §9, adapter parity)', () => {
  describeTicketStore('MemoryTicketStore', (clock) => new MemoryTicketStore(clock));
  describeServiceRegistry('MemoryServiceRegistry', () => new MemoryServiceRegistry());
  describeUserDirectory('MemoryUserDirectory', (users) => new MemoryUserDirectory(users));
  describeModuleStoresOnRecords('MemoryRecordStores', (clock) => new MemoryRecordStores(clock));
  describeSingleLogoutOnStores('memory', (clock) => ({ tickets: new MemoryTicketStore(clock), sessions: new RecordServiceSessionStore(new MemoryRecordStores(clock)), registry: new MemoryServiceRegistry() }));
});
