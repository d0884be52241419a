import type { SamlLogoutConfirmedEvent, SamlLogoutFailedEvent } from '@tessera/core/modules/saml2';
import { declareEvent } from '../../events/module-events.js';

const LOGOUTS = { name: 'tessera_saml2_logouts_total', help: 'Back-channel LogoutRequests to SAML SPs, by outcome (confirmed, or why not).', labelNames: ['outcome'] };

/** Single logout to SAML SPs: whether each SP confirmed the end of its session, audited and counted (the SP by entity id, the NameID only as a fingerprint). */
export const saml2Events = [
  declareEvent<SamlLogoutConfirmedEvent>({
    type: 'saml2.logout.confirmed',
    level: 'info',
    audit: { category: 'logout', outcome: 'success', who: 'principal' },
    counts: [{ counter: LOGOUTS, labels: () => ({ outcome: 'confirmed' }) }],
  }),
  declareEvent<SamlLogoutFailedEvent>({
    type: 'saml2.logout.failed',
    level: 'warn',
    audit: { category: 'logout', outcome: 'failure', who: 'principal' },
    counts: [{ counter: LOGOUTS, labels: ({ reason }) => ({ outcome: reason }) }],
  }),
];
