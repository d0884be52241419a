export { DEFAULT_MAX_TICKETS, MemoryTicketStore, type MemoryTicketStoreOptions } from './memory-ticket-store.js';
export { MemoryServiceRegistry } from './memory-service-registry.js';
export { MemoryUserDirectory } from './memory-user-directory.js';
export { memoryStorageReadiness } from './memory-readiness.js';
export { DEFAULT_MAX_RECORDS, MemoryRecordStores } from './memory-record-store.js';
