import type { DelegationFailedEvent, DelegationLogoutEvent, DelegationLogoutFailedEvent, DelegationProvedEvent } from '@tessera/core/modules/delegation';
import { declareEvent } from '../../events/module-events.js';

/**
 * A login through an upstream that failed: a warning, an audited failure, counted by provider and
 * reason; one that came back: an audited success. A browser sent to an upstream's logout: counted by
 * provider; one that could not be, or that the upstream did not confirm (tessera's logout done all the
 * same): a warning, an audited failure.
 */
export const delegationEvents = [
  declareEvent<DelegationFailedEvent>({
    type: 'delegation.failed',
    level: 'warn',
    audit: { category: 'authentication', outcome: 'failure', who: 'provider' },
    counts: [{ counter: { name: 'tessera_delegation_failures_total', help: 'Logins through an upstream identity provider that failed, by provider and reason.', labelNames: ['provider', 'reason'] }, labels: ({ provider, reason }) => ({ provider, reason }) }],
  }),
  declareEvent<DelegationProvedEvent>({
    type: 'delegation.proved',
    level: 'info',
    audit: { category: 'authentication', outcome: 'success', who: 'username' },
    counts: [{ counter: { name: 'tessera_delegation_logins_total', help: 'Users an upstream identity provider proved, by provider.', labelNames: ['provider'] }, labels: ({ provider }) => ({ provider }) }],
  }),
  declareEvent<DelegationLogoutEvent>({
    type: 'delegation.logout',
    level: 'info',
    counts: [{ counter: { name: 'tessera_delegation_logouts_total', help: 'Browsers sent to an upstream identity provider’s logout after tessera’s, by provider.', labelNames: ['provider'] }, labels: ({ provider }) => ({ provider }) }],
  }),
  declareEvent<DelegationLogoutFailedEvent>({ type: 'delegation.logout.failed', level: 'warn', audit: { category: 'logout', outcome: 'failure', who: 'provider' } }),
];
