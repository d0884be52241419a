import type { WebAuthnClonedEvent, WebAuthnRegisteredEvent } from '@tessera/core/modules/webauthn';
import { declareEvent } from '../../events/module-events.js';

/** A device registered: an audited success of its user; a counter that went back: a warning, an audited failure, counted. */
export const webauthnEvents = [
  declareEvent<WebAuthnRegisteredEvent>({
    type: 'webauthn.registered',
    level: 'info',
    audit: { category: 'authentication', outcome: 'success', who: 'username' },
    counts: [{ counter: { name: 'tessera_webauthn_registrations_total', help: 'Security keys and passkeys registered in the login.' } }],
  }),
  declareEvent<WebAuthnClonedEvent>({
    type: 'webauthn.cloned',
    level: 'warn',
    audit: { category: 'authentication', outcome: 'failure', who: 'username' },
    counts: [{ counter: { name: 'tessera_webauthn_clones_total', help: 'WebAuthn answers refused because their signature counter did not move forward (a cloned authenticator).' } }],
  }),
];
