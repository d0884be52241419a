export * from './request-rate-store.js';
export * from './throttle-store.js';
export * from './failure-locks.js';
export * from './authentication-throttle.js';
export * from './client-authentication-throttle.js';
export * from './request-rate-limit.js';
export type * from './events.js';
