export * from './grant-proxy-ticket.js';
export * from './issue-proxy-granting-ticket.js';
export * from './proxy-callback.js';
export * from './proxy-policy.js';
export type * from './events.js';
