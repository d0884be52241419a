import type { ConsentPrompt, ReminderTimeUnit } from '@tessera/core/modules/consent';
import type { HttpModule } from '../../http-module.js';
import { consentStep } from './consent-step.js';

/**
 * The `consent` module's part of the HTTP face: no route of its own; the view of its ticket prompt, the
 * consent page the browser login shows before a service ticket whose release the user has not agreed to.
 */
export function consentModule(prompt: ConsentPrompt, reminder: { readonly amount: number; readonly unit: ReminderTimeUnit }): HttpModule {
  return {
    name: 'consent',
    extensions: () => ({ loginPrompts: [consentStep(prompt, reminder)] }),
  };
}
