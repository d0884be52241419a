import type { RegisteredService, ServicePolicy } from '../domain/registry/registered-service.js';
import { DENY_ALL_ATTRIBUTES, RETURN_ALL_ATTRIBUTES, RETURN_ALLOWED_ATTRIBUTES, type ReturnAllowedAttributes } from './built-in-policies.js';

/**
 * A release policy as a store gave it back: today's form as it is, and the form versions before the
 * policy registrations wrote (`{ kind: 'none' | 'all' | 'allowed', names }`) as the policy it meant.
 * Anything else is passed on as it is, for the registry to refuse by its class when it is used.
 */
export function storedReleasePolicy(stored: unknown): ServicePolicy {
  return previousForm(stored) ?? (stored as ServicePolicy);
}

/** The policy a definition of the previous form meant; undefined for any other value. */
function previousForm(stored: unknown): ServicePolicy | undefined {
  if (typeof stored !== 'object' || stored === null || 'type' in stored || !('kind' in stored)) return undefined;
  if (stored.kind === 'none') return { type: DENY_ALL_ATTRIBUTES };
  if (stored.kind === 'all') return { type: RETURN_ALL_ATTRIBUTES };
  if (stored.kind !== 'allowed') return undefined;
  const names = 'names' in stored && Array.isArray(stored.names) ? stored.names.filter((name): name is string => typeof name === 'string') : [];
  const allowed: ReturnAllowedAttributes = { type: RETURN_ALLOWED_ATTRIBUTES, allowedAttributes: names };
  return allowed;
}

/** A service definition as a store gave it back, its policies in today's form (storedReleasePolicy). */
export function storedService(stored: RegisteredService): RegisteredService {
  return { ...stored, attributeRelease: storedReleasePolicy(stored.attributeRelease) };
}
