import type { Principal } from '../authentication/principal.js';
import { activates, strategyAllows, type AccessContext } from './access-rules.js';
import { compileAnywhere, compiledOnce } from './patterns.js';
import { hasExpired, type RegisteredService } from './registered-service.js';
import type { ServiceTypes } from './service-types.js';

/**
 * The pattern of a serviceId: case-insensitive, anchored on the whole URL (CAS's
 * FullRegexRegisteredServiceMatchingStrategy). An invalid pattern matches nothing. Compiled once.
 */
export const servicePattern = compiledOnce((serviceId) => compileFullMatch(serviceId, 'i'));

/** An accepted or rejected attribute value of an access strategy, whole, case ignored or not; each compiled once. */
const attributePattern = {
  caseIgnored: compiledOnce((pattern) => compileFullMatch(pattern, 'i')),
  caseKept: compiledOnce((pattern) => compileFullMatch(pattern)),
};

export function compileFullMatch(source: string, flags = ''): RegExp | null {
  if (source.trim() === '') return null;
  return compileAnywhere(`^(?:${source})$`, flags);
}

/**
 * The first service, in evaluation order, that the URL finds and whose access strategy allows it
 * (strategyAllows: enabled; given `now`, within its time window; given a client, asked by a matching
 * one). Given `now`, a service whose expiration date has passed is left out too, as a disabled one.
 * The URL finds a service whose type it matches (`types`: a CAS service, not a client of another
 * protocol, found by that protocol's own id, nor a service of a module that is off) and whose pattern
 * matches it whole.
 */
export function selectService(ordered: readonly RegisteredService[], url: string, types: ServiceTypes, context: AccessContext = {}): RegisteredService | undefined {
  for (const service of ordered) {
    if (service.accessStrategy.enabled && matchesUrl(service, url, types, context.now) && strategyAllows(service.accessStrategy, context)) return service;
  }
  return undefined;
}

/** The first service, in evaluation order, that the URL finds, whatever its access strategy says; given `now`, not one that has expired. */
export function firstMatchingService(ordered: readonly RegisteredService[], url: string, types: ServiceTypes, now?: number): RegisteredService | undefined {
  return ordered.find((service) => matchesUrl(service, url, types, now));
}

function matchesUrl(service: RegisteredService, url: string, types: ServiceTypes, now: number | undefined): boolean {
  if (!types.matchedByServiceUrl(service)) return false;
  return !(now !== undefined && hasExpired(service, now)) && servicePattern(service.serviceId)?.test(url) === true;
}

/**
 * The principal's attributes let it use the service, as CAS's DefaultRegisteredServiceAccessStrategy
 * decides: no value of a rejected attribute may match one of its patterns; then each required attribute
 * (or, with `requireAllAttributes: false`, at least one) needs a value matching one accepted value.
 * Patterns match the whole value, case ignored with `caseInsensitive`; one that is no valid regex
 * matches only itself. With `activation`, these rules apply only to a principal it activates for.
 */
export function principalMeetsRequirements(service: RegisteredService, principal: Principal): boolean {
  const { requiredAttributes, rejectedAttributes = {}, requireAllAttributes = true, caseInsensitive = false, activation } = service.accessStrategy;
  if (activation !== undefined && !activates(activation, principal.attributes)) return activation.allowIfInactive;
  const patternOf = caseInsensitive ? attributePattern.caseIgnored : attributePattern.caseKept;
  const matches = (name: string, patterns: readonly string[]) => {
    const values = principal.attributes[name] ?? [];
    return patterns.some((pattern) => {
      const regex = patternOf(pattern);
      return values.some((value) => (regex ? regex.test(value) : value === pattern));
    });
  };
  if (Object.entries(rejectedAttributes).some(([name, patterns]) => matches(name, patterns))) return false;
  const required = Object.entries(requiredAttributes);
  if (required.length === 0) return true;
  return requireAllAttributes ? required.every(([name, patterns]) => matches(name, patterns)) : required.some(([name, patterns]) => matches(name, patterns));
}
