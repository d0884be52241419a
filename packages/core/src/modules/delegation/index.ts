export * from './admission-rule.js';
export * from './buttons-prompt.js';
export * from './credential.js';
export * from './delegated-login.js';
export type * from './events.js';
export * from './login-states.js';
export * from './policy.js';
export * from './providers.js';
export * from './upstream.js';
