import type { AttributeConsent, ReminderTimeUnit } from '@tessera/core/modules/consent';
import type { HttpModule } from '../../http-module.js';
import { consentStep } from './consent-step.js';

/**
 * The `consent` module's part of the HTTP face: no route of its own; its ticket step, the consent page
 * the browser login shows before a service ticket whose release the user has not agreed to.
 */
export function consentModule(consent: AttributeConsent, reminder: { readonly amount: number; readonly unit: ReminderTimeUnit }): HttpModule {
  return {
    name: 'consent',
    extensions: () => ({ loginForm: { ticketSteps: [consentStep(consent, reminder)] } }),
  };
}
