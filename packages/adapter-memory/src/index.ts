export { DEFAULT_MAX_TICKETS, MemoryTicketStore, type MemoryTicketStoreOptions } from './memory-ticket-store.js';
export { MemoryServiceRegistry } from './memory-service-registry.js';
export { MemoryUserDirectory } from './memory-user-directory.js';
export { MemoryThrottleStore, type MemoryThrottleStoreOptions } from './memory-throttle-store.js';
export { MemoryOtpReplayStore } from './memory-otp-replay-store.js';
export { MemoryRequestRateStore } from './memory-request-rate-store.js';
export { memoryStorageReadiness } from './memory-readiness.js';
export { MemoryServiceSessionStore } from './memory-service-session-store.js';
export { DEFAULT_MAX_FORM_TOKENS, MemoryFormTokenStore } from './memory-form-token-store.js';
