export { consentModule } from './consent-module.js';
export { CONSENT_PARAMETERS } from './consent-step.js';
export { consentMessages, CONSENT_MESSAGES, type ConsentMessages } from './messages.js';
