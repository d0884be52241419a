import { InvalidServiceDefinitionError, type ServiceDefinition } from '@tessera/core';
import { parseServiceDefinition } from './cas-service-json.js';
import { keyProblems, type KeyRules } from './cas-service-keys.js';
import type { PolicySlots } from './policy-slots.js';

/** The fields of the earlier revision's form (POST /v1/services/add/{tgt}), CAS's ServiceDataHolder; no other is read. */
const LEGACY_FORM_KEYS: KeyRules = { read: ['serviceId', 'name', 'description', 'evaluationOrder', 'enabled', 'ssoEnabled'] };

/** Every parameter the earlier revision's form carries; absent fields are undefined. */
export type LegacyServiceForm = Readonly<Record<string, string | undefined>>;

export const LEGACY_SERVICE_TYPE = 'org.apereo.cas.services.RegexRegisteredService';
/** CAS 4.2–5.x put a form-added service last unless told otherwise (Integer.MAX_VALUE). */
export const LEGACY_DEFAULT_EVALUATION_ORDER = 2147483647;

const TRUE = new Set(['true', 'yes', 'on', '1']);
const FALSE = new Set(['false', 'no', 'off', '0']);

/**
 * The definition a legacy form describes: serviceId, name and description are required; errors name
 * the field, and a field the form does not have is refused. **Decision**: enabled and ssoEnabled
 * default to true (CAS's primitive fields defaulted to false, which registered a service nobody
 * could use until edited).
 */
export function legacyServiceDefinition(form: LegacyServiceForm, policies: PolicySlots): ServiceDefinition {
  const [unread, ...more] = keyProblems(form, LEGACY_FORM_KEYS);
  if (unread) throw new InvalidServiceDefinitionError(unread.field, unread.problem, ...more);
  for (const field of ['serviceId', 'name', 'description'] as const) {
    const value = form[field];
    if (value === undefined || value.trim() === '') throw new InvalidServiceDefinitionError(field, 'is required');
  }
  return parseServiceDefinition(
    {
      '@class': LEGACY_SERVICE_TYPE,
      serviceId: form['serviceId'],
      name: form['name'],
      description: form['description'],
      evaluationOrder: integerField('evaluationOrder', form['evaluationOrder']) ?? LEGACY_DEFAULT_EVALUATION_ORDER,
      accessStrategy: { enabled: booleanField('enabled', form['enabled']), ssoEnabled: booleanField('ssoEnabled', form['ssoEnabled']) },
    },
    policies,
    { acceptedTypes: [LEGACY_SERVICE_TYPE] },
  );
}

function integerField(field: string, value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const number = /^\s*-?\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number)) throw new InvalidServiceDefinitionError(field, 'must be an integer');
  return number;
}

function booleanField(field: string, value: string | undefined): boolean | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const word = value.trim().toLowerCase();
  if (TRUE.has(word)) return true;
  if (FALSE.has(word)) return false;
  throw new InvalidServiceDefinitionError(field, 'must be true or false');
}
