import { hash } from 'node:crypto';
import type { AttributeMap } from '../../domain/authentication/principal.js';
import type { RandomSource } from '../../ports/random-source.js';
import type { RecordStore, RecordStores } from '../../ports/record-store.js';

/**
 * When a stored decision stops counting, as CAS's ConsentReminderOptions: ALWAYS (it never counts: the
 * user is asked every time), ATTRIBUTE_NAME (asked again when the released attributes' names change),
 * ATTRIBUTE_VALUE (asked again when their names or values change). Each also ends at its reminder.
 */
export const REMINDER_OPTIONS = ['ALWAYS', 'ATTRIBUTE_NAME', 'ATTRIBUTE_VALUE'] as const;
export type ReminderOption = (typeof REMINDER_OPTIONS)[number];

/** The units of a reminder, as CAS's ChronoUnit names them. */
export const REMINDER_TIME_UNITS = ['SECONDS', 'MINUTES', 'HOURS', 'DAYS', 'WEEKS', 'MONTHS', 'YEARS'] as const;
export type ReminderTimeUnit = (typeof REMINDER_TIME_UNITS)[number];

const FIXED_UNIT_MS: Readonly<Record<Exclude<ReminderTimeUnit, 'MONTHS' | 'YEARS'>, number>> = {
  SECONDS: 1000,
  MINUTES: 60_000,
  HOURS: 3_600_000,
  DAYS: 86_400_000,
  WEEKS: 604_800_000,
};

/** `at` plus `amount` units, months and years by the calendar (UTC), as CAS adds a ChronoUnit to a date. */
export function addReminder(at: number, amount: number, unit: ReminderTimeUnit): number {
  if (unit === 'MONTHS' || unit === 'YEARS') {
    const date = new Date(at);
    if (unit === 'MONTHS') date.setUTCMonth(date.getUTCMonth() + amount);
    else date.setUTCFullYear(date.getUTCFullYear() + amount);
    return date.getTime();
  }
  return at + amount * FIXED_UNIT_MS[unit];
}

/**
 * A user's decision for one service URL, as CAS's ConsentDecision: who, for which service, when, the
 * option and reminder chosen, and what was agreed to: the attribute names, and for ATTRIBUTE_VALUE a
 * salted digest of the names and values (never the values themselves).
 */
export type ConsentDecision = {
  readonly principal: string;
  readonly service: string;
  readonly createdAt: number;
  readonly option: ReminderOption;
  readonly reminder: number;
  readonly reminderTimeUnit: ReminderTimeUnit;
  /** Sorted. */
  readonly attributeNames: readonly string[];
  readonly values?: { readonly salt: string; readonly digest: string };
};

/** The consent module's namespace of decisions in the storage's RecordStores. */
export const CONSENT_DECISIONS_NAMESPACE = 'consent.decisions';

const SALT_BYTES = 16;

/**
 * The decisions, shared by every node (the record namespace `consent.decisions`): one record per user
 * and service URL, under a digest of both, so a login finds its decision in one read. A record lives
 * until its reminder, after which it would not count anyway.
 */
export class ConsentDecisions {
  private readonly records: RecordStore<ConsentDecision>;

  constructor(
    records: RecordStores,
    private readonly random: RandomSource,
  ) {
    this.records = records.namespace<ConsentDecision>(CONSENT_DECISIONS_NAMESPACE);
  }

  find(principal: string, service: string): Promise<ConsentDecision | undefined> {
    return this.records.get(decisionId(principal, service));
  }

  /** Writes the user's decision for the service, replacing an earlier one. */
  async decide(decision: Omit<ConsentDecision, 'attributeNames' | 'values'>, attributes: AttributeMap): Promise<ConsentDecision> {
    const stored: ConsentDecision = {
      ...decision,
      attributeNames: Object.keys(attributes).sort(),
      ...(decision.option === 'ATTRIBUTE_VALUE' && { values: this.valuesDigest(attributes) }),
    };
    await this.records.put(decisionId(decision.principal, decision.service), stored, addReminder(decision.createdAt, decision.reminder, decision.reminderTimeUnit));
    return stored;
  }

  private valuesDigest(attributes: AttributeMap): { salt: string; digest: string } {
    const salt = Buffer.from(this.random.bytes(SALT_BYTES)).toString('base64url');
    return { salt, digest: valuesDigest(salt, attributes) };
  }
}

/** Whether the attributes now released are those the decision agreed to, as far as its option looks. */
export function agreedTo(decision: ConsentDecision, attributes: AttributeMap): boolean {
  if (decision.option === 'ALWAYS') return false;
  const names = Object.keys(attributes).sort();
  if (names.length !== decision.attributeNames.length || names.some((name, index) => name !== decision.attributeNames[index])) return false;
  if (decision.option === 'ATTRIBUTE_NAME') return true;
  return decision.values !== undefined && valuesDigest(decision.values.salt, attributes) === decision.values.digest;
}

/** The names and values in one canonical form (names sorted, each name's values in order), salted and hashed. */
function valuesDigest(salt: string, attributes: AttributeMap): string {
  const canonical = JSON.stringify(Object.keys(attributes).sort().map((name) => [name, attributes[name]]));
  return hash('sha256', `${salt}\n${canonical}`, 'base64url');
}

/** The record's id: a digest of the user and the service URL, so no id holds either as it is. */
function decisionId(principal: string, service: string): string {
  return hash('sha256', JSON.stringify([principal, service]), 'base64url');
}
