export { FixedClock } from './fixed-clock.js';
export { SeededRandomSource } from './seeded-random-source.js';
export { aRegisteredService, aServiceTicket, aTicketGrantingTicket, anAuthentication } from './builders.js';
export { describeTicketStore, type ContractHooks, type TicketStoreFactory } from './ticket-store-contract.js';
export { describeServiceRegistry, type ServiceRegistryFactory } from './service-registry-contract.js';
export { describeUserDirectory, type UserDirectoryFactory } from './user-directory-contract.js';
export { describeThrottleStore, type ThrottleStoreFactory } from './throttle-store-contract.js';
export { describeOtpReplayStore, type OtpReplayStoreFactory } from './otp-replay-store-contract.js';
export { describeRequestRateStore, type RequestRateStoreFactory } from './request-rate-store-contract.js';
