import type { RegisteredService } from '../../domain/registry/registered-service.js';
import { servicePattern } from '../../domain/registry/service-matcher.js';

/**
 * Whether the service's proxy policy lets it receive a PGT at `pgtUrl`: a regex policy whose pattern
 * (or, with `useServiceId`, the service's serviceId) matches the whole URL, case ignored, or equals it
 * with `exactMatch`. No policy, or the refusing one: never.
 */
export function allowsProxyCallback(service: RegisteredService, pgtUrl: string): boolean {
  const policy = service.proxyPolicy;
  if (policy?.kind !== 'regex') return false;
  const pattern = policy.useServiceId ? service.serviceId : policy.pattern;
  if (pattern === undefined) return false;
  if (policy.exactMatch) return pattern === pgtUrl;
  return servicePattern(pattern)?.test(pgtUrl) ?? false;
}

/** An absolute https URL: CAS protocol 3.0 calls no proxy callback over anything else. */
export function isHttpsUrl(text: string): boolean {
  return URL.canParse(text) && new URL(text).protocol === 'https:';
}
