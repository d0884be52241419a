import type { ConsentDeniedEvent, ConsentGivenEvent } from '@tessera/core/modules/consent';
import { declareEvent } from '../../events/module-events.js';

const DECISIONS = { name: 'tessera_consent_decisions_total', help: 'Users’ decisions on the consent page, by decision.', labelNames: ['decision'] };

/** Each decision on the consent page: an audit record of the user (the attribute names, never a value), counted. */
export const consentEvents = [
  declareEvent<ConsentGivenEvent>({
    type: 'consent.given',
    level: 'info',
    audit: { category: 'release', outcome: 'success', who: 'principal' },
    counts: [{ counter: DECISIONS, labels: () => ({ decision: 'allow' }) }],
  }),
  declareEvent<ConsentDeniedEvent>({
    type: 'consent.denied',
    level: 'info',
    audit: { category: 'release', outcome: 'failure', who: 'principal' },
    counts: [{ counter: DECISIONS, labels: () => ({ decision: 'deny' }) }],
  }),
];
