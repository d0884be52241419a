import {
  CHAINING_ATTRIBUTE_FILTER,
  compileFullMatch,
  MAPPED_REGEX_ATTRIBUTE_FILTER,
  MUTANT_REGEX_ATTRIBUTE_FILTER,
  REGEX_ATTRIBUTE_FILTER,
  REVERSE_MAPPED_REGEX_ATTRIBUTE_FILTER,
  type AttributeFilter,
  type InvalidServiceDefinitionError,
  type MutantPattern,
  type OrderedAttributeFilter,
  type ServiceDefinitionProblem,
} from '@tessera/core';
import { isClass, isRecord, keyProblems, type KeyRules } from './cas-service-keys.js';
import { javaInteger, javaList, javaMembers, stringList } from './java-collections.js';
import { readEach } from './parse-parts.js';

type Fail = (field: string, problem: string) => InvalidServiceDefinitionError;

const SCRIPTED_FILTER = 'RegisteredServiceScriptedAttributeFilter';
const FILTER_CLASSES =
  'RegisteredServiceRegexAttributeFilter, RegisteredServiceMappedRegexAttributeFilter, RegisteredServiceReverseMappedRegexAttributeFilter, RegisteredServiceMutantRegexAttributeFilter or RegisteredServiceChainingAttributeFilter (org.apereo.cas.services.support)';

const PATTERNS_KEYS = ['@class', 'patterns', 'excludeUnmappedAttributes', 'caseInsensitive', 'completeMatch'];
// `order` sorts the filters of a chain of filters, which reads it; one filter alone has nothing to be sorted against.
const FILTER_KEYS: Readonly<Record<AttributeFilter['type'], KeyRules>> = {
  [REGEX_ATTRIBUTE_FILTER]: { read: ['@class', 'pattern'], descriptive: ['order'] },
  [MAPPED_REGEX_ATTRIBUTE_FILTER]: { read: PATTERNS_KEYS, descriptive: ['order'] },
  [REVERSE_MAPPED_REGEX_ATTRIBUTE_FILTER]: { read: PATTERNS_KEYS, descriptive: ['order'] },
  [MUTANT_REGEX_ATTRIBUTE_FILTER]: { read: PATTERNS_KEYS, descriptive: ['order'] },
  [CHAINING_ATTRIBUTE_FILTER]: { read: ['@class', 'filters'], descriptive: ['order'] },
};

function filterType(written: unknown): AttributeFilter['type'] | undefined {
  return (Object.keys(FILTER_KEYS) as AttributeFilter['type'][]).find((type) => isClass(written, type.slice(type.lastIndexOf('.') + 1)));
}

/** A filter held in a chain of filters: its `order`, which only the chain reads, apart from its own keys. */
function withoutOrder(json: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { order: _order, ...rest } = json;
  return rest;
}

/** Problems with the keys of an `attributeFilter` of a class tessera reads (and of the filters a chain of them holds); its class is checked by parseAttributeFilter. */
export function attributeFilterKeyProblems(json: unknown, field: string): ServiceDefinitionProblem[] {
  if (!isRecord(json)) return [];
  const type = filterType(json['@class']);
  if (!type) return [];
  return keyProblems(json, FILTER_KEYS[type], `${field}.`, (key, value, inner) =>
    type === CHAINING_ATTRIBUTE_FILTER && key === 'filters'
      ? (javaMembers(value) ?? []).flatMap((each, index) => (isRecord(each) ? attributeFilterKeyProblems(withoutOrder(each), `${inner}[${index}]`) : []))
      : [],
  );
}

/** An `attributeFilter` of one of the classes tessera reads; a Groovy-scripted one is refused as what cannot run here. */
export function parseAttributeFilter(json: unknown, fail: Fail): AttributeFilter {
  if (!isRecord(json)) throw fail('(filter)', 'must be an object');
  if (isClass(json['@class'], SCRIPTED_FILTER)) throw fail('@class', `a Groovy script cannot run in tessera; write its rule as ${FILTER_CLASSES}`);
  const type = filterType(json['@class']);
  if (!type) throw fail('@class', `must be ${FILTER_CLASSES}`);
  if (type === REGEX_ATTRIBUTE_FILTER) {
    const pattern = json['pattern'];
    if (typeof pattern !== 'string' || compileFullMatch(pattern) === null) throw fail('pattern', 'is required (a regular expression)');
    return { type, pattern };
  }
  if (type === CHAINING_ATTRIBUTE_FILTER) return { type, filters: parseChainedFilters(json['filters'], fail) };
  const patterns = json['patterns'];
  if (!isRecord(patterns)) throw fail('patterns', 'must map attribute names to regular expressions');
  const flag = (key: string, fallback: boolean): boolean => {
    const value = json[key] ?? fallback;
    if (typeof value !== 'boolean') throw fail(key, 'must be a boolean');
    return value;
  };
  const settings = { excludeUnmappedAttributes: flag('excludeUnmappedAttributes', false), caseInsensitive: flag('caseInsensitive', true), completeMatch: flag('completeMatch', false) };
  const named = Object.entries(patterns).filter(([name]) => name !== '@class');
  if (type === MUTANT_REGEX_ATTRIBUTE_FILTER) {
    return { type, patterns: Object.fromEntries(named.map(([name, written]) => [name, mutantPatterns(written, (problem) => fail(`patterns.${name}`, problem))])), ...settings };
  }
  const mapped: Record<string, string> = {};
  for (const [name, pattern] of named) {
    if (typeof pattern !== 'string' || !validRegex(pattern)) throw fail(`patterns.${name}`, 'must be a regular expression');
    mapped[name] = pattern;
  }
  return { type, patterns: mapped, ...settings };
}

/**
 * The patterns of one attribute of a mutant filter, as CAS reads them: one or a list, each a regular
 * expression, or `pattern -> template` (split at the first `->`, both sides trimmed; a blank template
 * keeps the value as it is).
 */
function mutantPatterns(written: unknown, fail: (problem: string) => InvalidServiceDefinitionError): MutantPattern[] {
  const list = typeof written === 'string' ? [written] : stringList(written);
  if (!list || list.length === 0) throw fail('must be a regular expression, `pattern -> template`, or a list of them');
  return list.map((each) => {
    const arrow = each.indexOf('->');
    const pattern = (arrow === -1 ? each : each.slice(0, arrow)).trim();
    const template = arrow === -1 ? '' : each.slice(arrow + 2).trim();
    if (pattern === '' || !validRegex(pattern)) throw fail(`${JSON.stringify(pattern)} is not a regular expression`);
    return { pattern, ...(template !== '' && { template }) };
  });
}

function parseChainedFilters(written: unknown, fail: Fail): OrderedAttributeFilter[] {
  const members = javaMembers(written ?? []);
  if (!members) throw fail('filters', 'must be a list of attribute filters');
  return readEach(members, (each, index): OrderedAttributeFilter => {
    const field = `filters[${index}]`;
    if (!isRecord(each)) throw fail(field, 'must be an attribute filter (an object with its @class)');
    const order = javaInteger(each['order'] ?? 0);
    if (order === undefined) throw fail(`${field}.order`, 'must be an integer');
    return { order, filter: parseAttributeFilter(withoutOrder(each), (inner, problem) => fail(`${field}.${inner}`, problem)) };
  });
}

/** The filter as CAS writes it, options only when not their default. */
export function renderAttributeFilter(filter: AttributeFilter): Record<string, unknown> {
  if (filter.type === REGEX_ATTRIBUTE_FILTER) return { '@class': filter.type, pattern: filter.pattern };
  if (filter.type === CHAINING_ATTRIBUTE_FILTER) {
    return { '@class': filter.type, filters: javaList(filter.filters.map(({ order, filter: each }) => ({ ...renderAttributeFilter(each), ...(order !== 0 && { order }) }))) };
  }
  const patterns =
    filter.type === MUTANT_REGEX_ATTRIBUTE_FILTER
      ? Object.fromEntries(Object.entries(filter.patterns).map(([name, list]) => [name, javaList(list.map(({ pattern, template }) => (template === undefined ? pattern : `${pattern} -> ${template}`)))]))
      : filter.patterns;
  return {
    '@class': filter.type,
    patterns: { '@class': 'java.util.HashMap', ...patterns },
    ...(filter.excludeUnmappedAttributes && { excludeUnmappedAttributes: true }),
    ...(!filter.caseInsensitive && { caseInsensitive: false }),
    ...(filter.completeMatch && { completeMatch: true }),
  };
}

function validRegex(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}
