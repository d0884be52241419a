import type { OtpReusedEvent } from '@tessera/core/modules/otp';
import { declareEvent } from '../../events/module-events.js';

/** A code used again: a warning, an authentication failure of its user, counted. */
export const otpEvents = [
  declareEvent<OtpReusedEvent>({
    type: 'otp.reused',
    level: 'warn',
    audit: { category: 'authentication', outcome: 'failure', who: 'username' },
    counts: [{ counter: { name: 'tessera_otp_reuses_total', help: 'One-time passwords refused because they were used before.' } }],
  }),
];
