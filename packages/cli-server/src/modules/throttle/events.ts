import type { AuthenticationThrottledEvent } from '@tessera/core/modules/throttle';
import { declareEvent } from '../../events/module-events.js';

/** A key locked: a warning, an authentication failure of the username (the key, address and username, is not repeated), counted. */
export const throttleEvents = [
  declareEvent<AuthenticationThrottledEvent>({
    type: 'authentication.throttled',
    level: 'warn',
    audit: { category: 'authentication', outcome: 'failure', who: 'username', omit: ['key'] },
    counts: [{ counter: { name: 'tessera_throttle_locks_total', help: 'Client IP + username keys locked by the throttle module.' } }],
  }),
];
