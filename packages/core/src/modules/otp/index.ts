export * from './otp-replay-store.js';
export * from './otp-setup.js';
export * from './require-otp-policy.js';
export * from './totp-handler.js';
export * from './totp-enrolment.js';
export * from './credential.js';
export type * from './events.js';
export * from './totp-prompt.js';
