export * from './ceremonies.js';
export * from './credential.js';
export * from './devices.js';
export type * from './events.js';
export * from './passkey-challenges.js';
export * from './passkey-handler.js';
export * from './second-factor.js';
export * from './webauthn-prompts.js';
