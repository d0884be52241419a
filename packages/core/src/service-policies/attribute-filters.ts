import type { AttributeMap } from '../domain/authentication/principal.js';
import { compileAnywhere } from '../domain/registry/patterns.js';
import { compileFullMatch } from '../domain/registry/service-matcher.js';

const SUPPORT = 'org.apereo.cas.services.support';
export const REGEX_ATTRIBUTE_FILTER = `${SUPPORT}.RegisteredServiceRegexAttributeFilter`;
export const MAPPED_REGEX_ATTRIBUTE_FILTER = `${SUPPORT}.RegisteredServiceMappedRegexAttributeFilter`;
export const REVERSE_MAPPED_REGEX_ATTRIBUTE_FILTER = `${SUPPORT}.RegisteredServiceReverseMappedRegexAttributeFilter`;
export const MUTANT_REGEX_ATTRIBUTE_FILTER = `${SUPPORT}.RegisteredServiceMutantRegexAttributeFilter`;
export const CHAINING_ATTRIBUTE_FILTER = `${SUPPORT}.RegisteredServiceChainingAttributeFilter`;

/** CAS's RegisteredServiceRegexAttributeFilter: of every released attribute, only the values `pattern` matches as a whole. */
export interface RegexAttributeFilter {
  readonly type: typeof REGEX_ATTRIBUTE_FILTER;
  readonly pattern: string;
}

/** What the filters that map attributes to patterns share: how a pattern matches, and what becomes of an attribute none names. */
interface PatternsByAttribute {
  /** An attribute not named in the patterns is dropped (true) or kept as it is (false). */
  readonly excludeUnmappedAttributes: boolean;
  /** Patterns match case ignored (CAS's default). */
  readonly caseInsensitive: boolean;
  /** A pattern must match the whole value; false (CAS's default): anywhere in it. */
  readonly completeMatch: boolean;
}

/**
 * CAS's RegisteredServiceMappedRegexAttributeFilter: an attribute named in `patterns` keeps only the
 * values its pattern matches; RegisteredServiceReverseMappedRegexAttributeFilter: only those it does not.
 */
export interface MappedRegexAttributeFilter extends PatternsByAttribute {
  readonly type: typeof MAPPED_REGEX_ATTRIBUTE_FILTER | typeof REVERSE_MAPPED_REGEX_ATTRIBUTE_FILTER;
  readonly patterns: Readonly<Record<string, string>>;
}

/**
 * CAS's RegisteredServiceMutantRegexAttributeFilter: an attribute named in `patterns` keeps, for each
 * of its patterns in turn, the values that pattern matches, each rewritten by the pattern's template
 * when it has one (`pattern -> template`, `$1`… the pattern's groups).
 */
export interface MutantRegexAttributeFilter extends PatternsByAttribute {
  readonly type: typeof MUTANT_REGEX_ATTRIBUTE_FILTER;
  readonly patterns: Readonly<Record<string, readonly MutantPattern[]>>;
}

export interface MutantPattern {
  readonly pattern: string;
  /** What a matching value becomes; absent, the value is kept as it is. */
  readonly template?: string;
}

/**
 * CAS's RegisteredServiceChainingAttributeFilter: each filter, in `order` (ties in the order written),
 * filters the attributes it is given, all of them, and the results are put together, a later filter's
 * attribute replacing an earlier one's of the same name.
 */
export interface ChainingAttributeFilter {
  readonly type: typeof CHAINING_ATTRIBUTE_FILTER;
  readonly filters: readonly OrderedAttributeFilter[];
}

export interface OrderedAttributeFilter {
  readonly order: number;
  readonly filter: AttributeFilter;
}

export type AttributeFilter = RegexAttributeFilter | MappedRegexAttributeFilter | MutantRegexAttributeFilter | ChainingAttributeFilter;

/** The attributes the filter lets through; an attribute left with no value is dropped. */
export function filterAttributes(filter: AttributeFilter, attributes: AttributeMap): AttributeMap {
  if (filter.type === CHAINING_ATTRIBUTE_FILTER) {
    let kept: AttributeMap = {};
    for (const { filter: each } of byOrder(filter.filters)) kept = { ...kept, ...filterAttributes(each, attributes) };
    return kept;
  }
  const kept: Record<string, readonly string[]> = {};
  for (const [name, values] of Object.entries(attributes)) {
    const remaining = filterValues(filter, name, values);
    if (remaining !== undefined && remaining.length > 0) kept[name] = remaining;
  }
  return kept;
}

/** Stable: entries of the same order stay in the order written, as CAS's sort of Ordered objects leaves them. */
export function byOrder<T extends { readonly order: number }>(entries: readonly T[]): T[] {
  return [...entries].sort((a, b) => a.order - b.order);
}

/** The values of one attribute a (non-chaining) filter keeps, rewritten when it rewrites them; undefined drops the attribute. */
function filterValues(filter: Exclude<AttributeFilter, ChainingAttributeFilter>, name: string, values: readonly string[]): readonly string[] | undefined {
  if (filter.type === REGEX_ATTRIBUTE_FILTER) {
    const regex = compileFullMatch(filter.pattern);
    return values.filter((value) => regex?.test(value) ?? false);
  }
  if (!Object.hasOwn(filter.patterns, name)) return filter.excludeUnmappedAttributes ? undefined : values;
  const flags = filter.caseInsensitive ? 'i' : '';
  if (filter.type === MUTANT_REGEX_ATTRIBUTE_FILTER) {
    return (filter.patterns[name] ?? []).flatMap(({ pattern, template }) => {
      const regex = compilePattern(pattern, flags, filter.completeMatch);
      return values.flatMap((value) => {
        const match = regex?.exec(value);
        if (!match) return [];
        return [template === undefined ? value : substituteGroups(template, match)];
      });
    });
  }
  const regex = compilePattern(filter.patterns[name] ?? '', flags, filter.completeMatch);
  const matches = (value: string) => regex?.test(value) ?? false;
  return filter.type === MAPPED_REGEX_ATTRIBUTE_FILTER ? values.filter(matches) : values.filter((value) => !matches(value));
}

/**
 * `$1`, `$2`… of the template replaced by the match's groups, lowest first, as CAS does (so `$12` is
 * group 1 then a `2` when there is a group 1); a group that took no part in the match gives nothing.
 */
function substituteGroups(template: string, match: RegExpExecArray): string {
  let result = template;
  for (let group = 1; group < match.length; group += 1) result = result.split(`$${group}`).join(match[group] ?? '');
  return result;
}

/** A pattern matching the whole value, or anywhere in it; null when it is not a valid regular expression (it matches nothing). */
export function compilePattern(source: string, flags: string, whole: boolean): RegExp | null {
  return whole ? compileFullMatch(source, flags) : compileAnywhere(source, flags);
}
