export * from './register-service.js';
export type * from './events.js';
