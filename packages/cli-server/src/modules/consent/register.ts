import { consentModule } from '@tessera/adapter-koa/modules/consent';
import { AttributeConsent, ConsentDecisions, ConsentPrompt } from '@tessera/core/modules/consent';
import { KEYS } from '../../keys.js';
import type { ModuleRegistration } from '../module.js';
import type { consentSections } from './config.js';

/**
 * `consent`: the decisions (its own namespace of the storage's records), the engine that asks whether
 * a ticket needs the user's consent, and its prompt before a browser's service ticket (a ticket
 * prompt of the browser login).
 */
export const registerConsentModule: ModuleRegistration<typeof consentSections> = (binder, { consent }) => {
  binder.resolved(KEYS.HttpModule, [KEYS.RecordStores, KEYS.RandomSource, KEYS.CasCore, KEYS.Clock, KEYS.EventSink], (records, random, core, clock, events) => {
    const engine = new AttributeConsent(new ConsentDecisions(records, random), core.relyingParties, clock, events, consent);
    return consentModule(new ConsentPrompt(engine), { amount: consent.reminder, unit: consent.reminderTimeUnit });
  });
};
