import type { ReminderOption, ReminderTimeUnit } from '@tessera/core/modules/consent';

/** The consent module's texts on the login pages, by the pages' language (`login.language`). */
export interface ConsentMessages {
  readonly heading: string;
  /** Before the list of attributes; `{service}` is the service's host. */
  readonly intro: string;
  readonly askAgain: string;
  readonly options: Readonly<Record<ReminderOption, string>>;
  /** After the options; `{reminder}` is the reminder, as `reminder` says it. */
  readonly reminderNote: string;
  reminder(amount: number, unit: ReminderTimeUnit): string;
  readonly allow: string;
  readonly deny: string;
  readonly deniedHeading: string;
  /** After a refusal; `{service}` is the service's host. */
  readonly denied: string;
}

const UNITS: Readonly<Record<ReminderTimeUnit, readonly [string, string]>> = {
  SECONDS: ['second', 'seconds'],
  MINUTES: ['minute', 'minutes'],
  HOURS: ['hour', 'hours'],
  DAYS: ['day', 'days'],
  WEEKS: ['week', 'weeks'],
  MONTHS: ['month', 'months'],
  YEARS: ['year', 'years'],
};

const en: ConsentMessages = {
  heading: 'Share your information?',
  intro: '{service} will receive this information about you:',
  askAgain: 'Ask me again',
  options: {
    ATTRIBUTE_NAME: 'When the kinds of information shared change',
    ATTRIBUTE_VALUE: 'When the information shared, or any of its values, changes',
    ALWAYS: 'Every time I log in to this service',
  },
  reminderNote: 'In any case, you will be asked again in {reminder}.',
  reminder: (amount, unit) => `${amount} ${UNITS[unit][amount === 1 ? 0 : 1]}`,
  allow: 'Allow',
  deny: 'Deny',
  deniedHeading: 'Nothing was shared',
  denied: 'You did not allow your information to be shared, so you were not logged in to {service}. You are still logged in here.',
};

export const CONSENT_MESSAGES: Readonly<Record<string, ConsentMessages>> = { en };

/** The texts in `language`, else in English. */
export function consentMessages(language: string): ConsentMessages {
  return CONSENT_MESSAGES[language] ?? en;
}
