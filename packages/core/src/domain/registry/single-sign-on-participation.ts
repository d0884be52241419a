import type { TicketLifetimes } from '../tickets/lifetimes.js';
import type { TicketGrantingTicket } from '../tickets/ticket.js';

/** Java's TimeUnit names, as CAS's participation policies read `timeUnit`. */
export const TIME_UNITS = ['NANOSECONDS', 'MICROSECONDS', 'MILLISECONDS', 'SECONDS', 'MINUTES', 'HOURS', 'DAYS'] as const;
export type TimeUnit = (typeof TIME_UNITS)[number];

const MILLISECONDS_PER: Readonly<Record<TimeUnit, number>> = {
  NANOSECONDS: 1e-6,
  MICROSECONDS: 1e-3,
  MILLISECONDS: 1,
  SECONDS: 1000,
  MINUTES: 60_000,
  HOURS: 3_600_000,
  DAYS: 86_400_000,
};

/**
 * CAS's `singleSignOnParticipationPolicy`: whether a browser's login session logs it in to the service
 * without the form (single sign-on), as CAS's classes decide it; when not, the login form is shown
 * again, as for a service with `accessStrategy.ssoEnabled: false`.
 *
 * - `always` (DefaultRegisteredServiceSingleSignOnParticipationPolicy): always;
 * - `never` (NeverRegisteredServiceSingleSignOnParticipationPolicy): never;
 * - `authenticationDate` (AuthenticationDateRegisteredServiceSingleSignOnParticipationPolicy): while
 *   the session's login is less than `timeValue` `timeUnit` old (always when `timeValue` is 0 or less);
 * - `lastUsedTime` (LastUsedTimeRegisteredServiceSingleSignOnParticipationPolicy): while the session
 *   last granted a ticket less than that long ago;
 * - `chain` (ChainingRegisteredServiceSingleSignOnParticipationPolicy): while every policy of it says so.
 */
export type SingleSignOnParticipation =
  | { readonly kind: 'always' }
  | { readonly kind: 'never' }
  | { readonly kind: 'authenticationDate' | 'lastUsedTime'; readonly timeUnit: TimeUnit; readonly timeValue: number; readonly order: number }
  | { readonly kind: 'chain'; readonly policies: readonly SingleSignOnParticipation[] };

/** Whether the session `tgt` logs the browser in to a service of this policy at `now` (ms since the epoch). */
export function participatesInSingleSignOn(policy: SingleSignOnParticipation, tgt: TicketGrantingTicket, now: number, lifetimes: Pick<TicketLifetimes, 'tgtTimeToKillSeconds'>): boolean {
  switch (policy.kind) {
    case 'always':
      return true;
    case 'never':
      return false;
    case 'chain':
      return policy.policies.every((each) => participatesInSingleSignOn(each, tgt, now, lifetimes));
    case 'authenticationDate':
    case 'lastUsedTime': {
      if (policy.timeValue <= 0) return true;
      const since = policy.kind === 'authenticationDate' ? tgt.authentication.authenticatedAt : lastUsed(tgt, lifetimes);
      return now < since + policy.timeValue * MILLISECONDS_PER[policy.timeUnit];
    }
  }
}

/**
 * When the session last granted a ticket (or began), as its sliding expiry tells it: each grant sets
 * `expiresAt` to that time plus the time to kill. Where the hard limit cut the expiry short, this is
 * earlier than the grant, so the policy ends single sign-on sooner, never later.
 */
function lastUsed(tgt: TicketGrantingTicket, lifetimes: Pick<TicketLifetimes, 'tgtTimeToKillSeconds'>): number {
  // A session of a hard timeout never slides, so its expiry tells nothing of its use: its start is the earliest it may have been.
  if (tgt.hardTimeout) return tgt.createdAt;
  return Math.max(tgt.createdAt, tgt.expiresAt - lifetimes.tgtTimeToKillSeconds * 1000);
}
