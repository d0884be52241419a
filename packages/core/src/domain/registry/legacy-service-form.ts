import { InvalidServiceDefinitionError } from '../errors.js';
import { parseServiceDefinition, type ServiceDefinition } from './cas-service-json.js';

/** What the earlier revision's form carries (POST /v1/services/add/{tgt}); absent fields are undefined. */
export interface LegacyServiceForm {
  readonly serviceId?: string | undefined;
  readonly name?: string | undefined;
  readonly description?: string | undefined;
  readonly evaluationOrder?: string | undefined;
  readonly enabled?: string | undefined;
  readonly ssoEnabled?: string | undefined;
}

export const LEGACY_SERVICE_TYPE = 'org.apereo.cas.services.RegexRegisteredService';
/** CAS 4.2–5.x put a form-added service last unless told otherwise (Integer.MAX_VALUE). */
export const LEGACY_DEFAULT_EVALUATION_ORDER = 2147483647;

const TRUE = new Set(['true', 'yes', 'on', '1']);
const FALSE = new Set(['false', 'no', 'off', '0']);

/**
 * The definition a legacy form describes: serviceId, name and description are required; errors name
 * the field. **Decision**: enabled and ssoEnabled default to true (CAS's primitive fields defaulted to
 * false, which registered a service nobody could use until edited).
 */
export function legacyServiceDefinition(form: LegacyServiceForm): ServiceDefinition {
  for (const field of ['serviceId', 'name', 'description'] as const) {
    if (form[field] === undefined || form[field].trim() === '') throw new InvalidServiceDefinitionError(field, 'is required');
  }
  return parseServiceDefinition(
    {
      '@class': LEGACY_SERVICE_TYPE,
      serviceId: form.serviceId,
      name: form.name,
      description: form.description,
      evaluationOrder: integerField('evaluationOrder', form.evaluationOrder) ?? LEGACY_DEFAULT_EVALUATION_ORDER,
      accessStrategy: { enabled: booleanField('enabled', form.enabled), ssoEnabled: booleanField('ssoEnabled', form.ssoEnabled) },
    },
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
