export { FixedClock } from './fixed-clock.js';
export { SeededRandomSource } from './seeded-random-source.js';
export { aRegisteredService, aServiceTicket, aTicketGrantingTicket, anAuthentication } from './builders.js';
export { describeTicketStore, type ContractHooks, type TicketStoreFactory } from './ticket-store-contract.js';
export { describeServiceRegistry, type ServiceRegistryFactory } from './service-registry-contract.js';
export { describeUserDirectory, type UserDirectoryFactory } from './user-directory-contract.js';
export { Slapd, slapdInstalled } from './slapd/slapd-server.js';
export { describeWithSlapd } from './slapd/describe-with-slapd.js';
export * as ldapSeed from './slapd/seed.js';
