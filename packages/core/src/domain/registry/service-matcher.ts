import type { Principal } from '../authentication/principal.js';
import { hasExpired, OIDC_REGISTERED_SERVICE, type RegisteredService } from './registered-service.js';

const compiled = new Map<string, RegExp | null>();

/**
 * The pattern of a serviceId: case-insensitive, anchored on the whole URL (CAS's
 * FullRegexRegisteredServiceMatchingStrategy). An invalid pattern matches nothing. Compiled once.
 */
export function servicePattern(serviceId: string): RegExp | null {
  let pattern = compiled.get(serviceId);
  if (pattern === undefined) {
    pattern = compileFullMatch(serviceId, 'i');
    compiled.set(serviceId, pattern);
  }
  return pattern;
}

export function compileFullMatch(source: string, flags = ''): RegExp | null {
  if (source.trim() === '') return null;
  try {
    return new RegExp(`^(?:${source})$`, flags);
  } catch {
    return null;
  }
}

/**
 * The first enabled CAS service, in evaluation order, whose pattern matches the whole URL. Given
 * `now`, a service whose expiration date has passed is left out too, as a disabled one. An
 * OidcRegisteredService is a client of the OpenID Provider only: its pattern is that of its redirect
 * URIs, and as in Apereo CAS (whose CAS protocol locates only CAS services) it grants no CAS ticket.
 */
export function selectService(ordered: readonly RegisteredService[], url: string, now?: number): RegisteredService | undefined {
  for (const service of ordered) {
    if (service.type === OIDC_REGISTERED_SERVICE) continue;
    if (now !== undefined && hasExpired(service, now)) continue;
    if (service.accessStrategy.enabled && servicePattern(service.serviceId)?.test(url)) return service;
  }
  return undefined;
}

/**
 * The principal's attributes let it use the service, as CAS's DefaultRegisteredServiceAccessStrategy
 * decides: no value of a rejected attribute may match one of its patterns; then each required attribute
 * (or, with `requireAllAttributes: false`, at least one) needs a value matching one accepted value.
 * Patterns match the whole value, case ignored with `caseInsensitive`; one that is no valid regex
 * matches only itself.
 */
export function principalMeetsRequirements(service: RegisteredService, principal: Principal): boolean {
  const { requiredAttributes, rejectedAttributes = {}, requireAllAttributes = true, caseInsensitive = false } = service.accessStrategy;
  const matches = (name: string, patterns: readonly string[]) => {
    const values = principal.attributes[name] ?? [];
    return patterns.some((pattern) => {
      const regex = compileFullMatch(pattern, caseInsensitive ? 'i' : '');
      return values.some((value) => (regex ? regex.test(value) : value === pattern));
    });
  };
  if (Object.entries(rejectedAttributes).some(([name, patterns]) => matches(name, patterns))) return false;
  const required = Object.entries(requiredAttributes);
  if (required.length === 0) return true;
  return requireAllAttributes ? required.every(([name, patterns]) => matches(name, patterns)) : required.some(([name, patterns]) => matches(name, patterns));
}
