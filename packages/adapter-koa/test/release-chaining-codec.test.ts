import { expect } from 'chai';
import {
  CACHING_PRINCIPAL_ATTRIBUTES_REPOSITORY,
  CHAINING_ATTRIBUTE_FILTER,
  CHAINING_ATTRIBUTE_RELEASE_POLICY,
  MUTANT_REGEX_ATTRIBUTE_FILTER,
  REGEX_ATTRIBUTE_FILTER,
  RETURN_ALL_ATTRIBUTES,
  RETURN_ALLOWED_ATTRIBUTES,
  REVERSE_MAPPED_REGEX_ATTRIBUTE_FILTER,
  serviceDefinitionWarnings,
  type ChainingAttributes,
} from '@tessera/core';
import { parseServiceDefinition, refusalOf, toCasServiceJson } from './built-in-codec.js';

const CAS = 'org.apereo.cas.services';
const SUPPORT = `${CAS}.support`;
const BASE = { '@class': `${CAS}.CasRegisteredService`, id: 7, name: 'Chained', serviceId: '^https://chained\\.example\\.org/.*' };

const problems = (json: unknown): string[] => refusalOf(() => parseServiceDefinition(json));

/** Parsed, written as CAS writes it, read back: the same definition. */
function roundTrip(json: Record<string, unknown>) {
  const parsed = parseServiceDefinition({ ...BASE, ...json });
  const rendered = toCasServiceJson({ ...parsed, id: 7 });
  expect(parseServiceDefinition(rendered)).to.deep.equal({ ...parsed, id: 7 });
  return { parsed, rendered };
}

const chainOf = (policies: unknown[], more: Record<string, unknown> = {}) => ({ attributeReleasePolicy: { '@class': `${CAS}.ChainingAttributeReleasePolicy`, policies: ['java.util.ArrayList', policies], ...more } });

describe('ChainingAttributeReleasePolicy in the service JSON', () => {
  it('reads its policies (chains too) with their order, and mergingPolicy by today’s names or CAS 5’s words; round-trips', () => {
    const { parsed, rendered } = roundTrip(
      chainOf(
        [
          { '@class': 'ReturnAllowedAttributeReleasePolicy', allowedAttributes: ['mail'], order: '2' },
          { '@class': `${CAS}.ChainingAttributeReleasePolicy`, policies: [{ '@class': `${CAS}.ReturnAllAttributeReleasePolicy` }] },
        ],
        { mergingPolicy: 'multi_valued' },
      ),
    );
    expect(parsed.attributeRelease).to.deep.equal({
      type: CHAINING_ATTRIBUTE_RELEASE_POLICY,
      mergingPolicy: 'MULTIVALUED',
      policies: [
        { order: 2, policy: { type: RETURN_ALLOWED_ATTRIBUTES, allowedAttributes: ['mail'] } },
        { order: 0, policy: { type: CHAINING_ATTRIBUTE_RELEASE_POLICY, mergingPolicy: 'REPLACE', policies: [{ order: 0, policy: { type: RETURN_ALL_ATTRIBUTES } }] } },
      ],
    });
    expect(rendered['attributeReleasePolicy']).to.deep.equal({
      '@class': CHAINING_ATTRIBUTE_RELEASE_POLICY,
      mergingPolicy: 'MULTIVALUED',
      policies: [
        'java.util.ArrayList',
        [
          { '@class': RETURN_ALLOWED_ATTRIBUTES, allowedAttributes: ['java.util.ArrayList', ['mail']], order: 2 },
          { '@class': CHAINING_ATTRIBUTE_RELEASE_POLICY, policies: ['java.util.ArrayList', [{ '@class': RETURN_ALL_ATTRIBUTES }]] },
        ],
      ],
    });
    for (const [written, read] of [['REPLACE', 'REPLACE'], ['add', 'ADD'], ['none', 'SOURCE'], ['Destination', 'DESTINATION'], ['override', 'REPLACE']]) {
      expect((parseServiceDefinition({ ...BASE, ...chainOf([], { mergingPolicy: written }) }).attributeRelease as ChainingAttributes).mergingPolicy, written).to.equal(read);
    }
  });

  it('names every problem of the chain and of every policy it holds, by its whole path, in one run', () => {
    expect(problems({ ...BASE, ...chainOf([{ '@class': 'ReturnAllowedAttributeReleasePolicy', allowedAttribute: ['mail'] }]) })).to.deep.equal([
      'attributeReleasePolicy.policies[0].allowedAttribute: unknown key; did you mean allowedAttributes?',
    ]);
    const known = 'ReturnAllAttributeReleasePolicy, ReturnAllowedAttributeReleasePolicy, ReturnMappedAttributeReleasePolicy, DenyAllAttributeReleasePolicy or ChainingAttributeReleasePolicy';
    expect(
      problems({
        ...BASE,
        ...chainOf(
          [
            { '@class': 'ReturnAllAttributeReleasePolicy', excludedAttributes: 'mail' },
            { '@class': 'ReturnAllAttributeReleasePolicy', order: 'first' },
            { '@class': `${CAS}.ReturnRestfulAttributeReleasePolicy`, endpoint: 'http://localhost:5423' },
            { '@class': `${CAS}.GroovyScriptAttributeReleasePolicy`, groovyScript: 'classpath:release.groovy' },
            'ReturnAllAttributeReleasePolicy',
          ],
          { mergingPolicy: 'SOMETIMES' },
        ),
      }),
    ).to.deep.equal([
      'attributeReleasePolicy.mergingPolicy: must be one of REPLACE, ADD, MULTIVALUED, SOURCE, DESTINATION',
      'attributeReleasePolicy.policies[0].excludedAttributes: must be a list of attribute names',
      'attributeReleasePolicy.policies[1].order: must be an integer',
      `attributeReleasePolicy.policies[2].@class: tessera asks no site's endpoint what to release: its release is written in the definition; write the attributes it releases as ${known}`,
      `attributeReleasePolicy.policies[3].@class: a Groovy script cannot run in tessera; write the attributes it releases as ${known}`,
      'attributeReleasePolicy.policies[4]: must be an attribute release policy (an object with its @class)',
    ]);
    expect(problems({ ...BASE, ...chainOf([], { order: 3 }) })).to.deep.equal(['attributeReleasePolicy.order: not supported by tessera: a service has one release policy; accepted only as 0']);
  });
});

describe('the attribute filters in the service JSON', () => {
  const filtered = (attributeFilter: unknown) => ({ attributeReleasePolicy: { '@class': `${CAS}.ReturnAllAttributeReleasePolicy`, attributeFilter } });

  it('reads and writes reverse mapped, mutant (`pattern -> template`, one or a list) and chaining filters', () => {
    const reverse = roundTrip(filtered({ '@class': `${SUPPORT}.RegisteredServiceReverseMappedRegexAttributeFilter`, patterns: { '@class': 'java.util.TreeMap', memberOf: '^fac' }, completeMatch: true }));
    expect(reverse.parsed.attributeRelease).to.deep.include({
      attributeFilter: { type: REVERSE_MAPPED_REGEX_ATTRIBUTE_FILTER, patterns: { memberOf: '^fac' }, excludeUnmappedAttributes: false, caseInsensitive: true, completeMatch: true },
    });
    const mutant = roundTrip(
      filtered({
        '@class': `${SUPPORT}.RegisteredServiceMutantRegexAttributeFilter`,
        patterns: { '@class': 'java.util.TreeMap', memberOf: ['java.util.ArrayList', ['^mat(.+)(101) -> COURSE-$1$2', ' ^staff$ ->  ']], mail: '@example\\.org$' },
        excludeUnmappedAttributes: true,
        caseInsensitive: false,
      }),
    );
    expect(mutant.parsed.attributeRelease).to.deep.include({
      attributeFilter: {
        type: MUTANT_REGEX_ATTRIBUTE_FILTER,
        patterns: { memberOf: [{ pattern: '^mat(.+)(101)', template: 'COURSE-$1$2' }, { pattern: '^staff$' }], mail: [{ pattern: '@example\\.org$' }] },
        excludeUnmappedAttributes: true,
        caseInsensitive: false,
        completeMatch: false,
      },
    });
    const chained = roundTrip(
      filtered({
        '@class': `${SUPPORT}.RegisteredServiceChainingAttributeFilter`,
        filters: ['java.util.ArrayList', [{ '@class': `${SUPPORT}.RegisteredServiceRegexAttributeFilter`, pattern: '^\\w{4}$', order: 3 }]],
      }),
    );
    expect(chained.parsed.attributeRelease).to.deep.include({ attributeFilter: { type: CHAINING_ATTRIBUTE_FILTER, filters: [{ order: 3, filter: { type: REGEX_ATTRIBUTE_FILTER, pattern: '^\\w{4}$' } }] } });
  });

  it('refuses a scripted filter as what cannot run here, and names every problem of a chain of filters', () => {
    expect(problems({ ...BASE, ...filtered({ '@class': `${SUPPORT}.RegisteredServiceScriptedAttributeFilter`, script: "groovy { return attributes['uid'] }" }) })).to.deep.equal([
      'attributeReleasePolicy.attributeFilter.@class: a Groovy script cannot run in tessera; write its rule as RegisteredServiceRegexAttributeFilter, RegisteredServiceMappedRegexAttributeFilter, RegisteredServiceReverseMappedRegexAttributeFilter, RegisteredServiceMutantRegexAttributeFilter or RegisteredServiceChainingAttributeFilter (org.apereo.cas.services.support)',
    ]);
    expect(
      problems({
        ...BASE,
        ...filtered({
          '@class': `${SUPPORT}.RegisteredServiceChainingAttributeFilter`,
          filters: [
            { '@class': `${SUPPORT}.RegisteredServiceMutantRegexAttributeFilter`, patterns: { memberOf: ['(unclosed -> x'] } },
            { '@class': `${SUPPORT}.RegisteredServiceRegexAttributeFilter`, pattern: 'ok', order: 1.5 },
          ],
        }),
      }),
    ).to.deep.equal([
      'attributeReleasePolicy.attributeFilter.filters[0].patterns.memberOf: "(unclosed" is not a regular expression',
      'attributeReleasePolicy.attributeFilter.filters[1].order: must be an integer',
    ]);
    expect(problems({ ...BASE, ...filtered({ '@class': `${SUPPORT}.RegisteredServiceChainingAttributeFilter`, filters: [{ '@class': 'RegisteredServiceRegexAttributeFilter', patern: 'x' }] }) })).to.deep.equal([
      'attributeReleasePolicy.attributeFilter.filters[0].patern: unknown key; did you mean pattern?',
    ]);
  });
});

describe('principalAttributesRepository as CachingPrincipalAttributesRepository', () => {
  const CACHING = 'org.apereo.cas.authentication.principal.cache.CachingPrincipalAttributesRepository';
  const withRepository = (principalAttributesRepository: unknown) => ({ attributeReleasePolicy: { '@class': `${CAS}.ReturnAllAttributeReleasePolicy`, principalAttributesRepository } });

  it('loads, kept as written, and is warned about: tessera has no attribute repositories to refresh from', () => {
    const { parsed } = roundTrip(withRepository({ '@class': CACHING, timeUnit: 'HOURS', expiration: 2, mergingStrategy: 'REPLACE', attributeRepositoryIds: ['java.util.HashSet', ['ldap']], ignoreResolvedAttributes: false }));
    expect(parsed.attributeRelease).to.deep.equal({
      type: RETURN_ALL_ATTRIBUTES,
      principalAttributesRepository: { type: CACHING_PRINCIPAL_ATTRIBUTES_REPOSITORY, expiration: 2, timeUnit: 'HOURS', mergingStrategy: 'REPLACE', attributeRepositoryIds: ['ldap'] },
    });
    const [warning, ...more] = serviceDefinitionWarnings(parsed);
    expect(more).to.deep.equal([]);
    expect(warning).to.match(/^service "Chained" \(id 7\): its principalAttributesRepository is a CachingPrincipalAttributesRepository, .* tessera has none: the service receives the attributes its user’s authentication gave, for the whole session$/);
    const nested = parseServiceDefinition({ ...BASE, ...chainOf([{ '@class': 'ReturnAllAttributeReleasePolicy', principalAttributesRepository: { '@class': CACHING } }]) });
    expect(serviceDefinitionWarnings(nested)).to.have.length(1);
  });

  it('refuses ignoreResolvedAttributes true, bad options, any other class, and the default one with options', () => {
    expect(problems({ ...BASE, ...withRepository({ '@class': CACHING, ignoreResolvedAttributes: true }) })).to.deep.equal([
      'attributeReleasePolicy.principalAttributesRepository.ignoreResolvedAttributes: not supported by tessera: tessera has no attribute repositories: a service receives the attributes its user’s authentication gave; accepted only as false',
    ]);
    expect(problems({ ...BASE, ...withRepository({ '@class': CACHING, timeUnit: 'FORTNIGHTS' }) })).to.deep.equal([
      'attributeReleasePolicy.principalAttributesRepository.timeUnit: must be one of NANOSECONDS, MICROSECONDS, MILLISECONDS, SECONDS, MINUTES, HOURS, DAYS',
    ]);
    const accepted =
      'not supported by tessera: attributes come from the authentication only; accepted only as org.apereo.cas.authentication.principal.DefaultPrincipalAttributesRepository without options or org.apereo.cas.authentication.principal.cache.CachingPrincipalAttributesRepository';
    expect(problems({ ...BASE, ...withRepository({ '@class': 'org.example.MyRepository' }) })).to.deep.equal([`attributeReleasePolicy.principalAttributesRepository: ${accepted}`]);
    expect(problems({ ...BASE, ...withRepository({ '@class': 'org.apereo.cas.authentication.principal.DefaultPrincipalAttributesRepository', mergingStrategy: 'ADD' }) })).to.deep.equal([
      `attributeReleasePolicy.principalAttributesRepository: ${accepted}`,
    ]);
  });
});

describe('singleSignOnParticipationPolicy in the service JSON', () => {
  const policy = (singleSignOnParticipationPolicy: unknown) => ({ singleSignOnParticipationPolicy });

  it('reads the default, never, authentication-date, last-used-time and chaining policies; round-trips', () => {
    const { parsed } = roundTrip(
      policy({
        '@class': `${CAS}.ChainingRegisteredServiceSingleSignOnParticipationPolicy`,
        policies: [
          'java.util.ArrayList',
          [
            { '@class': `${CAS}.AuthenticationDateRegisteredServiceSingleSignOnParticipationPolicy`, timeUnit: 'SECONDS', timeValue: 5, order: 0 },
            { '@class': `${CAS}.LastUsedTimeRegisteredServiceSingleSignOnParticipationPolicy`, timeValue: '30', order: 1 },
            { '@class': `${CAS}.NeverRegisteredServiceSingleSignOnParticipationPolicy` },
            { '@class': `${CAS}.DefaultRegisteredServiceSingleSignOnParticipationPolicy`, createCookieOnRenewedAuthentication: 'UNDEFINED' },
          ],
        ],
      }),
    );
    expect(parsed.singleSignOnParticipation).to.deep.equal({
      kind: 'chain',
      policies: [
        { kind: 'authenticationDate', timeUnit: 'SECONDS', timeValue: 5, order: 0 },
        { kind: 'lastUsedTime', timeUnit: 'SECONDS', timeValue: 30, order: 1 },
        { kind: 'never' },
        { kind: 'always' },
      ],
    });
    expect(parseServiceDefinition(BASE)).to.not.have.property('singleSignOnParticipation');
    expect(roundTrip(policy({ '@class': `${CAS}.DefaultRegisteredServiceSingleSignOnParticipationPolicy`, createCookieOnRenewedAuthentication: 'TRUE' })).parsed.singleSignOnParticipation).to.deep.equal({ kind: 'always' });
  });

  it('names every problem at once; a Groovy policy cannot run here; FALSE for a renewed login’s cookie is not what tessera does', () => {
    expect(
      problems({
        ...BASE,
        ...policy({
          '@class': `${CAS}.ChainingRegisteredServiceSingleSignOnParticipationPolicy`,
          policies: [
            { '@class': `${CAS}.AuthenticationDateRegisteredServiceSingleSignOnParticipationPolicy`, timeUnit: 'seconds', timeValue: 5 },
            { '@class': `${CAS}.LastUsedTimeRegisteredServiceSingleSignOnParticipationPolicy`, timeValue: 'soon' },
            { '@class': `${CAS}.GroovyRegisteredServiceSingleSignOnParticipationPolicy`, groovyScript: 'groovy { true }' },
            { '@class': `${CAS}.AttributeBasedRegisteredServiceSingleSignOnParticipationPolicy` },
          ],
        }),
      }),
    ).to.deep.equal([
      'singleSignOnParticipationPolicy.policies[0].timeUnit: must be one of NANOSECONDS, MICROSECONDS, MILLISECONDS, SECONDS, MINUTES, HOURS, DAYS',
      'singleSignOnParticipationPolicy.policies[1].timeValue: must be an integer (0 or less: always)',
      `singleSignOnParticipationPolicy.policies[2].@class: a Groovy script cannot run in tessera; write the rule as DefaultRegisteredServiceSingleSignOnParticipationPolicy, NeverRegisteredServiceSingleSignOnParticipationPolicy, AuthenticationDateRegisteredServiceSingleSignOnParticipationPolicy, LastUsedTimeRegisteredServiceSingleSignOnParticipationPolicy or ChainingRegisteredServiceSingleSignOnParticipationPolicy (${CAS})`,
      `singleSignOnParticipationPolicy.policies[3].@class: must be DefaultRegisteredServiceSingleSignOnParticipationPolicy, NeverRegisteredServiceSingleSignOnParticipationPolicy, AuthenticationDateRegisteredServiceSingleSignOnParticipationPolicy, LastUsedTimeRegisteredServiceSingleSignOnParticipationPolicy or ChainingRegisteredServiceSingleSignOnParticipationPolicy (${CAS})`,
    ]);
    expect(problems({ ...BASE, ...policy({ '@class': `${CAS}.DefaultRegisteredServiceSingleSignOnParticipationPolicy`, createCookieOnRenewedAuthentication: 'FALSE' }) })).to.deep.equal([
      'singleSignOnParticipationPolicy.createCookieOnRenewedAuthentication: not supported by tessera: a login with renew starts or keeps the browser’s single sign-on session as any other login does; accepted only as TRUE or UNDEFINED',
    ]);
  });
});
