import type { OidcIssuedEvent, OidcLogoutEvent, OidcRefusedEvent } from '@tessera/core/modules/oidc';
import { declareEvent } from '../../events/module-events.js';
import { REFUSALS } from '../../metrics/tessera-metrics.js';

const ISSUED = { name: 'tessera_oidc_issued_total', help: 'OpenID Connect codes handed out (kind code) and tokens issued (kind: the grant type).', labelNames: ['kind'] };

/** The provider's codes and tokens (ticket actions), its refusals (counted among the refusals), its logouts. */
export const oidcEvents = [
  ...(['oidc.authorized', 'oidc.token.issued'] as const).map((type) =>
    declareEvent<OidcIssuedEvent>({
      type,
      level: 'info',
      audit: { category: 'ticket', outcome: 'success', who: 'principal' },
      counts: [{ counter: ISSUED, labels: (event) => ({ kind: event.type === 'oidc.authorized' ? 'code' : (event.grantType ?? 'unknown') }) }],
    }),
  ),
  declareEvent<OidcRefusedEvent>({
    type: 'oidc.refused',
    level: 'warn',
    audit: { category: 'ticket', outcome: 'failure' },
    counts: [{ counter: REFUSALS, labels: (event) => ({ request: `oidc_${event.request}`, reason: event.error }) }],
  }),
  declareEvent<OidcLogoutEvent>({ type: 'oidc.logout', level: 'info', audit: { category: 'logout', outcome: 'success', who: 'principal' } }),
  declareEvent<OidcLogoutEvent>({ type: 'oidc.backchannel.delivered', level: 'info', audit: { category: 'logout', outcome: 'success', who: 'principal' } }),
  declareEvent<OidcLogoutEvent>({ type: 'oidc.backchannel.failed', level: 'warn', audit: { category: 'logout', outcome: 'failure', who: 'principal' } }),
];
