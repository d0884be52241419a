import type { AuthenticationThrottledEvent, ClientThrottledEvent } from '@tessera/core/modules/throttle';
import { declareEvent } from '../../events/module-events.js';

/**
 * A key locked: a warning, an authentication failure of whom it names (the username; the OAuth client at
 * the token endpoints), counted. The key (address and name) is not repeated in the audit record.
 */
export const throttleEvents = [
  declareEvent<AuthenticationThrottledEvent>({
    type: 'authentication.throttled',
    level: 'warn',
    audit: { category: 'authentication', outcome: 'failure', who: 'username', omit: ['key'] },
    counts: [{ counter: { name: 'tessera_throttle_locks_total', help: 'Client IP + username keys locked by the throttle module.' } }],
  }),
  declareEvent<ClientThrottledEvent>({
    type: 'client.throttled',
    level: 'warn',
    audit: { category: 'authentication', outcome: 'failure', who: 'client', omit: ['key'] },
    counts: [{ counter: { name: 'tessera_throttle_client_locks_total', help: 'Client IP + OAuth client_id keys locked by the throttle module at the token endpoints.' } }],
  }),
];
