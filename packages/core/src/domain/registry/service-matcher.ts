import type { Principal } from '../authentication/principal.js';
import { OIDC_REGISTERED_SERVICE, type RegisteredService } from './registered-service.js';

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
 * The first enabled CAS service, in evaluation order, whose pattern matches the whole URL. An
 * OidcRegisteredService is a client of the OpenID Provider only: its pattern is that of its redirect
 * URIs, and as in Apereo CAS (whose CAS protocol locates only CAS services) it grants no CAS ticket.
 */
export function selectService(ordered: readonly RegisteredService[], url: string): RegisteredService | undefined {
  for (const service of ordered) {
    if (service.type === OIDC_REGISTERED_SERVICE) continue;
    if (service.accessStrategy.enabled && servicePattern(service.serviceId)?.test(url)) return service;
  }
  return undefined;
}

/** Each required attribute must have at least one value matching one accepted value (whole-value regex). */
export function principalMeetsRequirements(service: RegisteredService, principal: Principal): boolean {
  for (const [name, accepted] of Object.entries(service.accessStrategy.requiredAttributes)) {
    const values = principal.attributes[name] ?? [];
    const ok = accepted.some((pattern) => {
      const regex = compileFullMatch(pattern);
      return values.some((value) => (regex ? regex.test(value) : value === pattern));
    });
    if (!ok) return false;
  }
  return true;
}
