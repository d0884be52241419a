import type { CertificateIgnoredEvent } from '@tessera/core/modules/x509';
import { declareEvent } from '../../events/module-events.js';

/** A certificate nobody may vouch for here (an untrusted peer), or one that could not be read: an authentication failure of nobody known. */
export const x509Events = [
  declareEvent<CertificateIgnoredEvent>({
    type: 'x509.certificate.ignored',
    level: 'warn',
    audit: { category: 'authentication', outcome: 'failure' },
  }),
];
