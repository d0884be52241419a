export { FixedClock } from './fixed-clock.js';
export { SeededRandomSource } from './seeded-random-source.js';
export { aProxyGrantingTicket, aProxyTicket, aRegisteredService, aServiceTicket, aTicketGrantingTicket, anAuthentication } from './builders.js';
export { describeTicketStore, type ContractHooks, type TicketStoreFactory } from './ticket-store-contract.js';
export { describeServiceRegistry, type ServiceRegistryFactory } from './service-registry-contract.js';
export { describeUserDirectory, type UserDirectoryFactory } from './user-directory-contract.js';
export { Slapd, slapdInstalled } from './slapd/slapd-server.js';
export { describeWithSlapd } from './slapd/describe-with-slapd.js';
export * as ldapSeed from './slapd/seed.js';
export { describeRecordStores, type RecordStoresFactory, type RecordStoresHooks } from './record-store-contract.js';
export {
  CountingHasher,
  ListServiceRegistry,
  ListUserDirectory,
  MapRecordStores,
  MapTicketStore,
  RecordingEvents,
} from './fakes.js';
export type { AnotherNode } from './another-node.js';
export { freePort } from './ports.js';
export { builtInServicePolicies, testCore, type TestCoreParts } from './test-core.js';
export { rejectionOf } from './rejection.js';
