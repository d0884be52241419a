export * from './attribute-consent.js';
export * from './consent-decisions.js';
export type * from './events.js';
export * from './consent-prompt.js';
