import { z } from 'zod';
import { REMINDER_TIME_UNITS } from '@tessera/core/modules/consent';
import { flag, positiveInteger, section } from '../../config/setting-schemas.js';

export const consentSections = {
  consent: section({
    active: flag()
      .default(true)
      .describe(
        'Ask for consent for every service whose `consentPolicy` leaves it to the server (`status: UNDEFINED`, or no policy), as CAS does by default; false: only services with `status: TRUE` ask.',
      ),
    reminder: positiveInteger()
      .default(30)
      .describe('How long a user’s decision counts before they are asked again, in `reminderTimeUnit`s.'),
    reminderTimeUnit: z
      .enum(REMINDER_TIME_UNITS, { error: `expected one of ${REMINDER_TIME_UNITS.join(', ')}` })
      .default('DAYS')
      .describe('The unit of `reminder`.'),
    excludedAttributes: z
      .array(z.string({ error: 'expected an attribute name' }).min(1, { error: 'expected an attribute name' }), { error: 'expected a list of attribute names' })
      .default([])
      .describe('Attributes never asked about, for any service (they are released all the same).'),
  }).prefault({}),
};
