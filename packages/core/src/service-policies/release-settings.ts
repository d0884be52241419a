import type { AttributeMap } from '../domain/authentication/principal.js';
import { compileFullMatch } from '../domain/registry/service-matcher.js';
import type { ServicePolicy } from '../domain/registry/registered-service.js';

const SUPPORT = 'org.apereo.cas.services.support';
export const REGEX_ATTRIBUTE_FILTER = `${SUPPORT}.RegisteredServiceRegexAttributeFilter`;
export const MAPPED_REGEX_ATTRIBUTE_FILTER = `${SUPPORT}.RegisteredServiceMappedRegexAttributeFilter`;

/** CAS's RegisteredServiceRegexAttributeFilter: of every released attribute, only the values `pattern` matches as a whole. */
export interface RegexAttributeFilter {
  readonly type: typeof REGEX_ATTRIBUTE_FILTER;
  readonly pattern: string;
}

/**
 * CAS's RegisteredServiceMappedRegexAttributeFilter: an attribute named in `patterns` keeps only the
 * values its pattern matches (found anywhere in the value, or the whole value with `completeMatch`;
 * case ignored unless `caseInsensitive` is false); one not named is kept, or dropped with `excludeUnmappedAttributes`.
 */
export interface MappedRegexAttributeFilter {
  readonly type: typeof MAPPED_REGEX_ATTRIBUTE_FILTER;
  readonly patterns: Readonly<Record<string, string>>;
  readonly excludeUnmappedAttributes: boolean;
  readonly caseInsensitive: boolean;
  readonly completeMatch: boolean;
}

export type AttributeFilter = RegexAttributeFilter | MappedRegexAttributeFilter;

/**
 * What every Apereo release policy class has besides its own settings (its base class's): kept only
 * when not their default.
 */
export interface ReleaseSettings extends ServicePolicy {
  /** false: the authentication's attributes (`isFromNewLogin`, `authenticationDate`) are not released. */
  readonly authorizedToReleaseAuthenticationAttributes?: false;
  /** Applied to the principal's attributes the policy releases. */
  readonly attributeFilter?: AttributeFilter;
}

/** A policy's release of principal attributes, finished as CAS's base class does: filtered, then with the authentication's. */
export function finishRelease(policy: ReleaseSettings, released: AttributeMap, authentication: AttributeMap): AttributeMap {
  const filtered = policy.attributeFilter ? filterAttributes(policy.attributeFilter, released) : released;
  return policy.authorizedToReleaseAuthenticationAttributes === false ? filtered : { ...filtered, ...authentication };
}

export function filterAttributes(filter: AttributeFilter, attributes: AttributeMap): AttributeMap {
  const kept: Record<string, readonly string[]> = {};
  for (const [name, values] of Object.entries(attributes)) {
    const matches = valueMatcher(filter, name);
    if (matches === 'drop') continue;
    const remaining = matches === 'keep' ? values : values.filter(matches);
    if (remaining.length > 0) kept[name] = remaining;
  }
  return kept;
}

/** Which values of one attribute a filter keeps: all, none, or those a test accepts. An invalid pattern matches nothing. */
function valueMatcher(filter: AttributeFilter, name: string): 'keep' | 'drop' | ((value: string) => boolean) {
  if (filter.type === REGEX_ATTRIBUTE_FILTER) {
    const regex = compileFullMatch(filter.pattern);
    return (value) => regex?.test(value) ?? false;
  }
  if (!Object.hasOwn(filter.patterns, name)) return filter.excludeUnmappedAttributes ? 'drop' : 'keep';
  const source = filter.patterns[name] ?? '';
  const flags = filter.caseInsensitive ? 'i' : '';
  const regex = filter.completeMatch ? compileFullMatch(source, flags) : compilePartial(source, flags);
  return (value) => regex?.test(value) ?? false;
}

function compilePartial(source: string, flags: string): RegExp | null {
  try {
    return new RegExp(source, flags);
  } catch {
    return null;
  }
}
