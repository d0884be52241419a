import { z } from 'zod';
import { CAS_REGISTERED_SERVICE, compileFullMatch, InvalidConfigurationError } from '@tessera/core';
import { type RegistrationPolicy } from '@tessera/core/modules/services';
import { flag } from '../../config/setting-schemas.js';


/** `registration.*`: the settings of the `services` module (docs/protocol.md §3, POST /v1/services*). */
const registrationSchema = z.strictObject(
  {
    current: flag().default(true).describe('With the `services` module: serve `POST /v1/services` (HTTP Basic credentials, a CAS JSON definition).'),
    earlier: flag()
      .default(false)
      .describe('With the `services` module: serve `POST /v1/services/add/{tgt}`, the form variant of CAS 4.2–5.x.'),
    requiredAttribute: z
      .strictObject(
        {
          name: z
            .string()
            .min(1, { error: 'expected an attribute name' })
            .optional()
            .describe('Principal attribute a caller needs to register services. Required with the `services` module: there is no open registration.'),
          valuePattern: z
            .string()
            .refine((pattern) => compileFullMatch(pattern, 'i') !== null, { error: 'is not a valid regular expression' })
            .optional()
            .describe('One value of that attribute must match this regular expression (case-insensitive, whole value). Required with the `services` module.'),
        },
        { error: 'expected a map of settings' },
      )
      .prefault({}),
    acceptedTypes: z
      .array(z.string().min(1, { error: 'expected a class name' }), { error: 'expected a list of class names' })
      .min(1, { error: 'expected at least one class name' })
      .default([CAS_REGISTERED_SERVICE, 'org.apereo.cas.services.RegexRegisteredService'])
      .describe('`@class` values `POST /v1/services` accepts; other definitions get 400.'),
  },
  { error: 'expected a map of settings' },
);

export type RegistrationSettings = z.output<typeof registrationSchema>;

/** Problems of `registration` when the `services` module is on: both parts of the required attribute must be set. */
export function registrationProblems(settings: RegistrationSettings): { path: string[]; message: string }[] {
  return (['name', 'valuePattern'] as const)
    .filter((part) => settings.requiredAttribute[part] === undefined)
    .map((part) => ({ path: ['registration', 'requiredAttribute', part], message: 'is required when the services module is on' }));
}

/** The policy of RegisterService; the schema has already refused a configuration without one. */
export function registrationPolicy(settings: RegistrationSettings): RegistrationPolicy {
  const { name, valuePattern } = settings.requiredAttribute;
  if (name === undefined || valuePattern === undefined) {
    throw new InvalidConfigurationError('registration.requiredAttribute', 'name and valuePattern are required when the services module is on');
  }
  return { requiredAttribute: { name, valuePattern } };
}

export const servicesSections = { registration: registrationSchema.prefault({}) };
