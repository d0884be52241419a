export * from './browser-login.js';
export * from './form-token-store.js';
export * from './login-form-tokens.js';
export * from './login-keys.js';
export * from './logout-request.js';
export * from './service-session-store.js';
export * from './single-logout.js';
export * from './ticket-granting-cookie.js';
export type * from './events.js';
