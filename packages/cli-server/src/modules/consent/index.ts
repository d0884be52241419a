import { CONSENT_PARAMETERS } from '@tessera/adapter-koa/modules/consent';
import type { TesseraModule } from '../module.js';
import { consentSections } from './config.js';
import { consentEvents } from './events.js';
import { registerConsentModule } from './register.js';

/** `consent`: users agree to the release of their attributes before the browser login sends them to a service, as CAS's attribute consent. */
export const consentModule: TesseraModule<typeof consentSections> = {
  name: 'consent',
  comparisonRows: ['Consent to attribute release'],
  // Its page is a step of the browser login.
  dependencies: ['login'],
  sections: consentSections,
  events: consentEvents,
  parameters: () => [{ name: CONSENT_PARAMETERS.decision }, { name: CONSENT_PARAMETERS.option }],
  register: registerConsentModule,
};
