/**
 * A service's own ticket lifetimes, Apereo's per-service expiration policies as written (kept so the
 * definition round-trips); without one, the tickets of the service live as `tickets.*` says.
 *
 * - `ticketGrantingTicketExpiration` (DefaultRegisteredServiceTicketGrantingTicketExpirationPolicy):
 *   a login for the service starts a session that dies `maxTimeToLiveInSeconds` after it began, however
 *   active (no idle window); 0 or less: the default lifetimes. Single sign-on into the service takes a
 *   session only while it is younger than that.
 * - `serviceTicketExpiration`, `proxyTicketExpiration` (DefaultRegisteredServiceServiceTicketExpirationPolicy,
 *   DefaultRegisteredServiceProxyTicketExpirationPolicy): the ST (PT) granted for the service lives
 *   `timeToLive` (seconds, or an ISO-8601 duration as Java reads one, `PT30S`) and validates
 *   `numberOfUses` times, when `numberOfUses` is more than 0 and `timeToLive` is not blank; otherwise
 *   the default lifetime, and one validation.
 * - `proxyGrantingTicketExpiration` (DefaultRegisteredServiceProxyGrantingTicketExpirationPolicy): a PGT
 *   issued to the service (its validated ticket's) dies `maxTimeToLiveInSeconds` after it was issued,
 *   and never after its session.
 */
export interface TicketGrantingTicketExpiration {
  readonly maxTimeToLiveInSeconds: number;
}

export interface UseLimitedTicketExpiration {
  readonly numberOfUses: number;
  /** As written: whole seconds (`"30"`) or an ISO-8601 duration (`"PT30S"`); absent when the definition has none. */
  readonly timeToLive?: string;
}

export interface ProxyGrantingTicketExpiration {
  readonly maxTimeToLiveInSeconds: number;
}

/** The session lifetime, in seconds, a login for a service of this policy gets; undefined: the default ones. */
export function sessionMaxTimeToLiveSeconds(policy: TicketGrantingTicketExpiration | undefined): number | undefined {
  return policy !== undefined && policy.maxTimeToLiveInSeconds > 0 ? policy.maxTimeToLiveInSeconds : undefined;
}

/** Whether a ST or PT policy applies at all (Apereo: uses more than 0 and a time to live written); otherwise the default lifetime does. */
export function appliesToTickets(policy: UseLimitedTicketExpiration | undefined): policy is UseLimitedTicketExpiration & { readonly timeToLive: string } {
  return policy !== undefined && policy.numberOfUses > 0 && policy.timeToLive !== undefined && policy.timeToLive.trim() !== '';
}

/** The lifetime, in seconds, of an ST or PT granted for a service of this policy; `fallback` when the policy does not apply. */
export function ticketTimeToLiveSeconds(policy: UseLimitedTicketExpiration | undefined, fallback: number): number {
  return appliesToTickets(policy) ? durationSeconds(policy.timeToLive) : fallback;
}

/** The uses an ST or PT granted for a service of this policy takes (`usesLeft`), when the policy applies and grants more than one. */
export function ticketUses(policy: UseLimitedTicketExpiration | undefined): { readonly usesLeft?: number } {
  return appliesToTickets(policy) && policy.numberOfUses > 1 ? { usesLeft: policy.numberOfUses } : {};
}

// Java's Duration.parse: days, hours, minutes and seconds (with up to nine decimals), each signed, case ignored.
const ISO_DURATION = /^([-+]?)P(?:([-+]?\d+)D)?(T(?:([-+]?\d+)H)?(?:([-+]?\d+)M)?(?:([-+]?\d+)(?:[.,](\d{0,9}))?S)?)?$/i;

/**
 * A duration as Apereo reads a `timeToLive` (Beans.newDuration): whole seconds (`30`), or an ISO-8601
 * duration (`PT30S`, `PT1H`, `P1D`), in whole seconds rounded down; NaN when it is neither.
 */
export function durationSeconds(text: string): number {
  if (/^[-+]?\d+$/.test(text)) return Number(text);
  const match = ISO_DURATION.exec(text);
  if (!match) return Number.NaN;
  const [, sign, days, time, hours, minutes, seconds, fraction] = match;
  // A `T` needs a part after it, and the whole needs one part at least.
  if (time === 'T' || (days === undefined && time === undefined)) return Number.NaN;
  const whole = Number(days ?? 0) * 86_400 + Number(hours ?? 0) * 3600 + Number(minutes ?? 0) * 60 + Number(seconds ?? 0);
  const parts = (seconds?.startsWith('-') ? -1 : 1) * Number(`0.${fraction ?? ''}`) + whole;
  return Math.floor(sign === '-' ? -parts : parts);
}
