import type { AttributeMap } from '../authentication/principal.js';
import { compileAnywhere, compiledOnce } from './patterns.js';
import type { AccessStrategy, AccessWindow, ActivationCriteria, RequestRules } from './registered-service.js';

/** What a request tells the access strategy of its client. */
export interface RequestClient {
  readonly address?: string;
  readonly userAgent?: string;
}

/**
 * When and by whom a service is asked for: `now` brings in the time window, `client` the HTTP
 * request rules. A check without one of them leaves its rules out (single logout tells services
 * whatever the time or the client).
 */
export interface AccessContext {
  readonly now?: number;
  readonly client?: RequestClient;
}

/**
 * Whether the strategy lets the service be used at all, before any user is known: as CAS's
 * `isServiceAccessAllowed`, enabled, within its time window, and asked by a matching client.
 */
export function strategyAllows(strategy: AccessStrategy, context: AccessContext = {}): boolean {
  if (!strategy.enabled) return false;
  if (strategy.window !== undefined && context.now !== undefined && !withinWindow(strategy.window, context.now)) return false;
  if (strategy.request !== undefined && context.client !== undefined && !clientMatches(strategy.request, context.client)) return false;
  return true;
}

/** `now` is not before the start nor after the end (an end is still inside: CAS refuses only after it). */
export function withinWindow(window: AccessWindow, now: number): boolean {
  const start = window.startingDateTime === undefined ? Number.NaN : windowInstant(window.startingDateTime, window.zoneId);
  const end = window.endingDateTime === undefined ? Number.NaN : windowInstant(window.endingDateTime, window.zoneId);
  return !(now < start) && !(now > end);
}

/** Each rule is found somewhere in its value, case ignored, as CAS finds it; a value the request lacks matches no rule. */
export function clientMatches(rules: RequestRules, client: RequestClient): boolean {
  const found = (pattern: string | undefined, value: string | undefined) => {
    if (pattern === undefined || pattern.trim() === '') return true;
    const regex = rulePattern(pattern);
    return regex !== null && value !== undefined && regex.test(value);
  };
  return found(rules.ipAddress, client.address === undefined ? undefined : plainAddress(client.address)) && found(rules.userAgent, client.userAgent);
}

/**
 * Whether the criteria switch the strategy's attribute rules on for a principal with these
 * attributes: the values of a name, joined into one pattern, are found in one of its values, case
 * ignored; values that make no pattern together compare literally.
 */
export function activates(criteria: ActivationCriteria, attributes: AttributeMap): boolean {
  const holds = ([name, required]: [string, readonly string[]]) => {
    const values = attributes[name] ?? [];
    const pattern = rulePattern(`(${required.join('|')})`);
    return pattern === null ? values.some((value) => required.includes(value)) : values.some((value) => pattern.test(value));
  };
  const entries = Object.entries(criteria.requiredAttributes);
  return criteria.operator === 'AND' ? entries.every(holds) : entries.some(holds);
}

/** A request rule's pattern, case ignored, or null when it is no regular expression. */
export function requestPattern(pattern: string): RegExp | null {
  return compileAnywhere(pattern, 'i');
}

/** requestPattern for the checks, of request rules and activation criteria alike: each source compiled once. */
const rulePattern = compiledOnce(requestPattern);

/** An IPv4 peer on a dual-stack socket (`::ffff:192.0.2.1`) as the IPv4 address its rules are written for. */
function plainAddress(address: string): string {
  return address.toLowerCase().startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?(?:\[[^\]]+\])?)?$/;

/**
 * The instant a window's date-time stands for, as CAS reads it: an ISO date-time with an offset (and
 * perhaps a zone in brackets) is that instant; one without, or a date alone (its first instant), is
 * local to `zoneId` (UTC when absent). NaN when it is neither, names no real date, or the zone is unknown.
 */
export function windowInstant(text: string, zoneId: string | undefined): number {
  const fields = DATE_TIME.exec(text.trim());
  if (!fields) return Number.NaN;
  const [year, month, day, hour = 0, minute = 0, second = 0] = fields.slice(1, 7).map((field) => (field === undefined ? undefined : Number(field))) as number[];
  const milliseconds = Number((fields[7] ?? '0').padEnd(3, '0').slice(0, 3));
  const wall = Date.UTC(year as number, (month as number) - 1, day, hour, minute, second, milliseconds);
  const date = new Date(wall);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() + 1 !== month || date.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return Number.NaN;
  const offset = fields[8];
  return offset === undefined ? localToInstant(wall, zoneId ?? 'UTC') : wall - zoneOffset(offset, wall);
}

/** Whether `zoneId` names a zone a window may be local to: a region (`Europe/Paris`), `UTC`, or a fixed offset (`+02:00`, `UTC+2`). */
export function isKnownZone(zoneId: string): boolean {
  return !Number.isNaN(zoneOffset(zoneId, 0));
}

/** The instant at which the zone's clocks show `wall` (read as UTC fields); in a gap or an overlap, the earlier reading. */
function localToInstant(wall: number, zoneId: string): number {
  const first = wall - zoneOffset(zoneId, wall);
  return wall - zoneOffset(zoneId, first);
}

const FIXED_OFFSET = /^(?:UTC|GMT|UT)?([+-])(\d{1,2})(?::?(\d{2}))?$/i;
const formatters = new Map<string, Intl.DateTimeFormat | null>();

/** The zone's offset from UTC at `instant`, in ms; NaN for a zone Node's time-zone data does not know. */
function zoneOffset(zoneId: string, instant: number): number {
  const id = zoneId.trim();
  if (id === 'Z') return 0;
  const fixed = FIXED_OFFSET.exec(id);
  if (fixed) {
    const hours = Number(fixed[2]);
    const minutes = Number(fixed[3] ?? 0);
    return hours > 18 || minutes > 59 ? Number.NaN : (fixed[1] === '-' ? -1 : 1) * (hours * 60 + minutes) * 60_000;
  }
  const format = formatterOf(id);
  if (format === null) return Number.NaN;
  const parts = Object.fromEntries(format.formatToParts(new Date(instant)).map(({ type, value }) => [type, value]));
  const shown = Date.UTC(Number(parts['year']), Number(parts['month']) - 1, Number(parts['day']), Number(parts['hour']), Number(parts['minute']), Number(parts['second']));
  return shown - (instant - (((instant % 1000) + 1000) % 1000));
}

function formatterOf(zoneId: string): Intl.DateTimeFormat | null {
  let format = formatters.get(zoneId);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-US', { timeZone: zoneId, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    } catch {
      format = null;
    }
    formatters.set(zoneId, format);
  }
  return format;
}
