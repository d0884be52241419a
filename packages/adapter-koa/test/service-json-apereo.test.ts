import { expect } from 'chai';
import { serviceDefinitionWarnings } from '@tessera/core';
import { parseServiceDefinition, refusalOf, toCasServiceJson } from './built-in-codec.js';

const CAS = 'org.apereo.cas.services';
const BASE = { '@class': `${CAS}.CasRegisteredService`, id: 3, name: 'Intranet', serviceId: '^https://intranet\\.example\\.org/.*' };
const STRATEGY = `${CAS}.DefaultRegisteredServiceAccessStrategy`;

const problems = (json: unknown): string[] => refusalOf(() => parseServiceDefinition(json));

const roundTrip = (json: Record<string, unknown>) => {
  const parsed = parseServiceDefinition(json);
  expect(parseServiceDefinition(toCasServiceJson({ ...parsed, id: 3 }))).to.deep.equal({ ...parsed, id: 3 });
  return parsed;
};

// What Apereo CAS's own files write, read as CAS reads it.
describe('service definitions as Apereo CAS writes them', () => {
  it('principalAttributesRepository as DefaultPrincipalAttributesRepository without options is what tessera does: accepted, in either package', () => {
    for (const type of ['org.apereo.cas.authentication.principal.DefaultPrincipalAttributesRepository', 'org.jasig.cas.authentication.principal.DefaultPrincipalAttributesRepository']) {
      const policy = { '@class': `${CAS}.ReturnAllAttributeReleasePolicy`, principalAttributesRepository: { '@class': type } };
      expect(parseServiceDefinition({ ...BASE, attributeReleasePolicy: policy })).to.deep.equal(parseServiceDefinition({ ...BASE, attributeReleasePolicy: { '@class': policy['@class'] } }));
    }
  });

  it('evaluationOrder written as a quoted integer is that integer, as Jackson reads it', () => {
    expect(roundTrip({ ...BASE, evaluationOrder: '1500' }).evaluationOrder).to.equal(1500);
    expect(parseServiceDefinition({ ...BASE, evaluationOrder: ' -2 ' }).evaluationOrder).to.equal(-2);
    expect(problems({ ...BASE, evaluationOrder: '15x' })).to.deep.equal(['evaluationOrder: must be an integer']);
    expect(problems({ ...BASE, evaluationOrder: 1.5 })).to.deep.equal(['evaluationOrder: must be an integer']);
  });

  it('requireAllAttributes false without required attributes changes nothing; with them, one is enough, and it round-trips', () => {
    expect(parseServiceDefinition({ ...BASE, accessStrategy: { '@class': STRATEGY, requireAllAttributes: false } })).to.deep.equal(
      parseServiceDefinition({ ...BASE, accessStrategy: { '@class': STRATEGY, requireAllAttributes: false } }),
    );
    const anyOf = roundTrip({
      ...BASE,
      accessStrategy: {
        '@class': STRATEGY,
        requireAllAttributes: false,
        caseInsensitive: true,
        requiredAttributes: { '@class': 'java.util.HashMap', memberOf: ['java.util.HashSet', ['staff']], mail: ['java.util.HashSet', ['.*@example\\.org']] },
        rejectedAttributes: { '@class': 'java.util.HashMap', affiliation: ['java.util.HashSet', ['guest']] },
      },
    });
    expect(anyOf.accessStrategy).to.deep.equal({
      enabled: true,
      ssoEnabled: true,
      requiredAttributes: { memberOf: ['staff'], mail: ['.*@example\\.org'] },
      requireAllAttributes: false,
      caseInsensitive: true,
      rejectedAttributes: { affiliation: ['guest'] },
    });
    // Their defaults, as CAS's exports spell them out, are the service without them.
    const defaults = { '@class': STRATEGY, requireAllAttributes: true, caseInsensitive: false, rejectedAttributes: { '@class': 'java.util.HashMap' } };
    expect(parseServiceDefinition({ ...BASE, accessStrategy: defaults }).accessStrategy).to.deep.equal({ enabled: true, ssoEnabled: true, requiredAttributes: {} });
    expect(problems({ ...BASE, accessStrategy: { requireAllAttributes: 'no', caseInsensitive: 1 } })).to.deep.equal([
      'accessStrategy.requireAllAttributes: must be a boolean',
      'accessStrategy.caseInsensitive: must be a boolean',
    ]);
  });

  it('an empty or missing name loads, as in CAS (it is only shown), with a warning', () => {
    expect(parseServiceDefinition({ ...BASE, name: '' }).name).to.equal('');
    expect(roundTrip({ '@class': BASE['@class'], serviceId: BASE.serviceId }).name).to.equal('');
    expect(serviceDefinitionWarnings({ ...parseServiceDefinition({ ...BASE, name: '' }) })).to.deep.equal(['the service of id 3 has no name; give it one to tell it apart in lists and logs']);
    expect(serviceDefinitionWarnings(parseServiceDefinition(BASE))).to.deep.equal([]);
    expect(problems({ ...BASE, name: ['x'] })).to.deep.equal(['name: must be a string']);
  });

  it('templateName without templates given is refused, never dropped: the template it names would add keys (an access strategy)', () => {
    expect(problems({ ...BASE, templateName: 'Staff' })).to.deep.equal([
      'templateName: names service templates, and none are given: set serviceTemplatesDirectory (tessera services: --templates DIR)',
    ]);
  });

  it('expirationPolicy with a date is kept, with its flags, and round-trips; without one the service never expires', () => {
    const policy = { '@class': `${CAS}.DefaultRegisteredServiceExpirationPolicy`, deleteWhenExpired: true, notifyWhenDeleted: false, notifyWhenExpired: false, expirationDate: '2017-10-05' };
    expect(roundTrip({ ...BASE, expirationPolicy: policy }).expirationPolicy).to.deep.equal({ expirationDate: '2017-10-05', deleteWhenExpired: true, notifyWhenDeleted: false, notifyWhenExpired: false });
    expect(parseServiceDefinition({ ...BASE, expirationPolicy: { '@class': policy['@class'] } })).to.deep.equal(parseServiceDefinition(BASE));
    expect(problems({ ...BASE, expirationPolicy: { ...policy, expirationDate: 'next week', notifyWhenExpird: true } })).to.deep.equal([
      'expirationPolicy.notifyWhenExpird: unknown key; did you mean notifyWhenExpired?',
    ]);
    expect(problems({ ...BASE, expirationPolicy: { ...policy, expirationDate: 'next week' } })).to.deep.equal([
      'expirationPolicy.expirationDate: must be a date (2030-12-31) or a date and time (2030-12-31T18:00:00Z)',
    ]);
  });

  it('allowedAttributes on a policy that does not read it names the class that does, not a key of the opposite meaning', () => {
    for (const type of ['ReturnAllAttributeReleasePolicy', 'DenyAllAttributeReleasePolicy']) {
      expect(problems({ ...BASE, attributeReleasePolicy: { '@class': `${CAS}.${type}`, allowedAttributes: ['java.util.ArrayList', ['mail']] } })).to.deep.equal([
        'attributeReleasePolicy.allowedAttributes: unknown key for this class (CAS ignores it): it is read only with ReturnAllowedAttributeReleasePolicy',
      ]);
    }
  });

  it('names every problem of a definition in one run, keys and values alike', () => {
    expect(
      problems({
        ...BASE,
        serviceId: '^(https',
        name: 7,
        evaluationOrder: 'first',
        colour: 'blue',
        accessStrategy: { enabled: 'yes', ssoEnabled: 'no', requiredAttributes: { memberOf: 5 } },
        attributeReleasePolicy: { '@class': `${CAS}.ReturnAllowedAttributeReleasePolicy`, allowedAttributes: 'mail' },
        logoutUrl: 'ftp://x',
      }),
    ).to.deep.equal([
      'colour: unknown key (known: @class, id, name, serviceId, description, logo, informationUrl, privacyUrl, evaluationOrder, accessStrategy, attributeReleasePolicy, usernameAttributeProvider, logoutType, logoutUrl, proxyPolicy, multifactorPolicy, properties, expirationPolicy, singleSignOnParticipationPolicy, supportedProtocols, templateName, ticketGrantingTicketExpirationPolicy, serviceTicketExpirationPolicy, proxyTicketExpirationPolicy, proxyGrantingTicketExpirationPolicy, theme, locale, contacts)',
      'serviceId: is not a valid regular expression',
      'name: must be a string',
      'evaluationOrder: must be an integer',
      'accessStrategy.enabled: must be a boolean',
      'accessStrategy.ssoEnabled: must be a boolean',
      'accessStrategy.requiredAttributes.memberOf: must be a list of strings',
      'attributeReleasePolicy.allowedAttributes: must be a list of attribute names',
      'logoutUrl: must be an absolute http or https URL',
    ]);
  });
});

describe('attribute release as Apereo CAS writes it', () => {
  const release = (policy: Record<string, unknown>) => roundTrip({ ...BASE, attributeReleasePolicy: policy }).attributeRelease;

  it('ReturnMappedAttributeReleasePolicy: each attribute to one name or several; a Groovy value is refused, saying so', () => {
    expect(
      release({
        '@class': `${CAS}.ReturnMappedAttributeReleasePolicy`,
        allowedAttributes: { '@class': 'java.util.TreeMap', mail: 'email', memberOf: ['java.util.ArrayList', ['groups', 'roles']] },
      }),
    ).to.deep.equal({ type: `${CAS}.ReturnMappedAttributeReleasePolicy`, allowedAttributes: { mail: ['email'], memberOf: ['groups', 'roles'] } });
    expect(problems({ ...BASE, attributeReleasePolicy: { '@class': `${CAS}.ReturnMappedAttributeReleasePolicy`, allowedAttributes: { uid: 'groovy { return "x" }' } } })).to.deep.equal([
      'attributeReleasePolicy.allowedAttributes.uid: a Groovy script cannot run in tessera; write the name to release the attribute under',
    ]);
  });

  it('the base class settings: authorizedToReleaseAuthenticationAttributes false, excludedAttributes on ReturnAll, the two regex filters', () => {
    expect(release({ '@class': `${CAS}.ReturnAllAttributeReleasePolicy`, authorizedToReleaseAuthenticationAttributes: false, excludedAttributes: ['java.util.HashSet', ['mail']] })).to.deep.equal({
      type: `${CAS}.ReturnAllAttributeReleasePolicy`,
      excludedAttributes: ['mail'],
      authorizedToReleaseAuthenticationAttributes: false,
    });
    const support = 'org.apereo.cas.services.support';
    expect(release({ '@class': `${CAS}.ReturnAllowedAttributeReleasePolicy`, allowedAttributes: ['mail'], attributeFilter: { '@class': `${support}.RegisteredServiceRegexAttributeFilter`, pattern: '^.{5,}$', order: 0 } })).to.deep.equal({
      type: `${CAS}.ReturnAllowedAttributeReleasePolicy`,
      allowedAttributes: ['mail'],
      attributeFilter: { type: `${support}.RegisteredServiceRegexAttributeFilter`, pattern: '^.{5,}$' },
    });
    const mapped = { '@class': `${support}.RegisteredServiceMappedRegexAttributeFilter`, patterns: { '@class': 'java.util.HashMap', memberOf: '^st' }, excludeUnmappedAttributes: true, completeMatch: true };
    expect(release({ '@class': `${CAS}.ReturnAllAttributeReleasePolicy`, attributeFilter: mapped })).to.deep.equal({
      type: `${CAS}.ReturnAllAttributeReleasePolicy`,
      attributeFilter: { type: `${support}.RegisteredServiceMappedRegexAttributeFilter`, patterns: { memberOf: '^st' }, excludeUnmappedAttributes: true, caseInsensitive: true, completeMatch: true },
    });
    expect(problems({ ...BASE, attributeReleasePolicy: { '@class': `${CAS}.ReturnAllAttributeReleasePolicy`, attributeFilter: { ...mapped, completMatch: true } } })).to.deep.equal([
      'attributeReleasePolicy.attributeFilter.completMatch: unknown key; did you mean completeMatch?',
    ]);
    expect(problems({ ...BASE, attributeReleasePolicy: { '@class': `${CAS}.ReturnAllAttributeReleasePolicy`, attributeFilter: { '@class': `${support}.RegisteredServiceMutantRegexAttributeFilter` } } })).to.deep.equal([
      'attributeReleasePolicy.attributeFilter.patterns: must map attribute names to regular expressions',
    ]);
  });
});
