export * from './ticket-codec.js';
export * from './cas-jwt-codec.js';
export * from './jwt-tickets.js';
export * from './token-keys.js';
