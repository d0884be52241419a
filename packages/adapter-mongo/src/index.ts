export { connectMongo, type MongoConnection } from './connect.js';
export { COLLECTIONS, createMongoStores, type MongoDatabase, type MongoStores } from './mongo-stores.js';
export { MongoOtpReplayStore, type OtpStepDocument } from './mongo-otp-replay-store.js';
export { MongoServiceRegistry } from './mongo-service-registry.js';
export { MongoThrottleStore, THROTTLE_RETENTION_MS, type ThrottleDocument } from './mongo-throttle-store.js';
export { MongoTicketStore } from './mongo-ticket-store.js';
export { MongoUserDirectory, type UserDocument } from './mongo-user-directory.js';
export type { ServiceDocument } from './service-documents.js';
export type { StDocument, TgtDocument, TicketDocument } from './ticket-documents.js';
