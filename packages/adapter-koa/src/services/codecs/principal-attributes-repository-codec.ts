import {
  CACHING_PRINCIPAL_ATTRIBUTES_REPOSITORY,
  type CachingPrincipalAttributesRepository,
  type InvalidServiceDefinitionError,
  type ServiceDefinitionProblem,
} from '@tessera/core';
import { is, isClass, isRecord, keyProblems, type KeyRules } from './cas-service-keys.js';
import { javaInteger, javaList, stringList } from './java-collections.js';

type Fail = (field: string, problem: string) => InvalidServiceDefinitionError;

const DEFAULT_REPOSITORY = 'DefaultPrincipalAttributesRepository';
const CACHING_REPOSITORY = 'CachingPrincipalAttributesRepository';
const ACCEPTED = `not supported by tessera: attributes come from the authentication only; accepted only as org.apereo.cas.authentication.principal.${DEFAULT_REPOSITORY} without options or ${CACHING_PRINCIPAL_ATTRIBUTES_REPOSITORY}`;

const TIME_UNITS = ['NANOSECONDS', 'MICROSECONDS', 'MILLISECONDS', 'SECONDS', 'MINUTES', 'HOURS', 'DAYS'];
const MERGING_STRATEGIES = ['REPLACE', 'ADD', 'MULTIVALUED', 'NONE', 'SOURCE', 'DESTINATION'];

const CACHING_KEYS: KeyRules = {
  read: ['@class', 'expiration', 'timeUnit', 'mergingStrategy', 'attributeRepositoryIds'],
  unsupported: {
    // true releases only what the attribute repositories give, and tessera has none.
    ignoreResolvedAttributes: { instead: 'tessera has no attribute repositories: a service receives the attributes its user’s authentication gave', accepted: { when: is(false), as: 'false' } },
  },
};

/**
 * Problems with a `principalAttributesRepository`: CAS's default one without options (what tessera
 * does) and the caching one are read; any other, or the default one with options, is refused here.
 */
export function principalAttributesRepositoryKeyProblems(json: unknown, field: string): ServiceDefinitionProblem[] {
  if (json === null || json === undefined) return [];
  if (isRecord(json) && isClass(json['@class'], CACHING_REPOSITORY)) return keyProblems(json, CACHING_KEYS, `${field}.`);
  return isDefaultWithoutOptions(json) ? [] : [{ field, problem: ACCEPTED }];
}

function isDefaultWithoutOptions(json: unknown): boolean {
  return isRecord(json) && isClass(json['@class'], DEFAULT_REPOSITORY) && Object.keys(json).every((key) => key === '@class');
}

/** The caching repository with its options as written; undefined for the default one (or none). */
export function parsePrincipalAttributesRepository(json: unknown, fail: Fail): CachingPrincipalAttributesRepository | undefined {
  if (json === null || json === undefined || isDefaultWithoutOptions(json)) return undefined;
  if (!isRecord(json) || !isClass(json['@class'], CACHING_REPOSITORY)) throw fail('@class', ACCEPTED);
  const expiration = json['expiration'] ?? undefined;
  const expires = expiration === undefined ? undefined : javaInteger(expiration);
  if (expiration !== undefined && (expires === undefined || expires < 0)) throw fail('expiration', 'must be a whole number of timeUnit, 0 or more');
  const timeUnit = json['timeUnit'] ?? undefined;
  if (timeUnit !== undefined && (typeof timeUnit !== 'string' || !TIME_UNITS.includes(timeUnit.toUpperCase()))) throw fail('timeUnit', `must be one of ${TIME_UNITS.join(', ')}`);
  const mergingStrategy = json['mergingStrategy'] ?? undefined;
  if (mergingStrategy !== undefined && (typeof mergingStrategy !== 'string' || !MERGING_STRATEGIES.includes(mergingStrategy.toUpperCase()))) {
    throw fail('mergingStrategy', `must be one of ${MERGING_STRATEGIES.join(', ')}`);
  }
  const ids = json['attributeRepositoryIds'] ?? undefined;
  const attributeRepositoryIds = ids === undefined ? undefined : stringList(ids);
  if (ids !== undefined && attributeRepositoryIds === undefined) throw fail('attributeRepositoryIds', 'must be a list of attribute repository ids');
  return {
    type: CACHING_PRINCIPAL_ATTRIBUTES_REPOSITORY,
    ...(expires !== undefined && { expiration: expires }),
    ...(typeof timeUnit === 'string' && { timeUnit }),
    ...(typeof mergingStrategy === 'string' && { mergingStrategy }),
    ...(attributeRepositoryIds !== undefined && { attributeRepositoryIds }),
  };
}

/** The caching repository as CAS writes it, its options as they were read. */
export function renderPrincipalAttributesRepository(repository: CachingPrincipalAttributesRepository): Record<string, unknown> {
  return {
    '@class': repository.type,
    ...(repository.expiration !== undefined && { expiration: repository.expiration }),
    ...(repository.timeUnit !== undefined && { timeUnit: repository.timeUnit }),
    ...(repository.mergingStrategy !== undefined && { mergingStrategy: repository.mergingStrategy }),
    ...(repository.attributeRepositoryIds !== undefined && { attributeRepositoryIds: javaList(repository.attributeRepositoryIds) }),
  };
}
