import { expect } from 'chai';
import type { AccessStrategy } from '@tessera/core';
import { OIDC_CLIENTS_CODEC, parseServiceDefinition, refusalOf, toCasServiceJson } from './built-in-codec.js';
import { service } from './fakes.js';

const CAS = 'org.apereo.cas.services';
const BASE = { '@class': `${CAS}.CasRegisteredService`, id: 3, name: 'Intranet', serviceId: '^https://intranet\\.example\\.org/.*' };
const TIME_BASED = `${CAS}.TimeBasedRegisteredServiceAccessStrategy`;
const HTTP_REQUEST = `${CAS}.HttpRequestRegisteredServiceAccessStrategy`;

const problems = (json: unknown): string[] => refusalOf(() => parseServiceDefinition(json));

const strategy = (accessStrategy: Record<string, unknown>): AccessStrategy => parseServiceDefinition({ ...BASE, accessStrategy }).accessStrategy;

describe('access strategies as Apereo CAS writes them', () => {
  it('reads the three classes, each with the default strategy keys, and round-trips each through its class', () => {
    const strategies: AccessStrategy[] = [
      { enabled: false, ssoEnabled: true, requiredAttributes: { memberOf: ['staff'] }, unauthorizedRedirectUrl: 'https://www.example.org/no-access' },
      { enabled: true, ssoEnabled: false, requiredAttributes: {}, window: { startingDateTime: '2030-01-31T09:00:00', endingDateTime: '2030-02-01T17:00:00Z', zoneId: 'Europe/Paris' } },
      { enabled: true, ssoEnabled: true, requiredAttributes: {}, caseInsensitive: true, request: { ipAddress: '^10\\.', userAgent: 'Firefox' }, unauthorizedRedirectUrl: 'http://intranet.example.org/denied' },
    ];
    for (const accessStrategy of strategies) expect(parseServiceDefinition(toCasServiceJson(service({ accessStrategy })))).to.deep.equal(service({ accessStrategy }));
    expect((toCasServiceJson(service({ accessStrategy: strategies[1]! }))['accessStrategy'] as Record<string, unknown>)['@class']).to.equal(TIME_BASED);
    expect((toCasServiceJson(service({ accessStrategy: strategies[2]! }))['accessStrategy'] as Record<string, unknown>)['@class']).to.equal(HTTP_REQUEST);
    expect(strategy({ '@class': TIME_BASED, startingDateTime: '2015-11-01T13:19:54.132-07:00', zoneId: 'UTC', enabled: false })).to.deep.equal({
      enabled: false,
      ssoEnabled: true,
      requiredAttributes: {},
      window: { startingDateTime: '2015-11-01T13:19:54.132-07:00', zoneId: 'UTC' },
    });
  });

  it('refuses an unauthorizedRedirectUrl that is not an absolute http or https URL', () => {
    for (const url of ['/no-access', 'javascript:alert(1)', 'ftp://files.example.org/', 42]) {
      expect(problems({ ...BASE, accessStrategy: { unauthorizedRedirectUrl: url } }), String(url)).to.deep.equal([
        'accessStrategy.unauthorizedRedirectUrl: must be an absolute http or https URL (where a refused browser is sent)',
      ]);
    }
  });

  it('names every bad value of a time window at once: a date-time it cannot read, a zone it does not know', () => {
    expect(problems({ ...BASE, accessStrategy: { '@class': TIME_BASED, startingDateTime: '10/11/2015 09:55 AM', endingDateTime: '2030-02-30T10:00:00', zoneId: 'Mars/Olympus' } })).to.deep.equal([
      'accessStrategy.zoneId: is not a time zone (write a region such as Europe/Paris, UTC, or an offset such as +02:00)',
      'accessStrategy.startingDateTime: must be an ISO date-time with an offset (2030-01-31T09:00:00+01:00), or without one, local to zoneId (2030-01-31T09:00:00), or a date (2030-01-31)',
      'accessStrategy.endingDateTime: must be an ISO date-time with an offset (2030-01-31T09:00:00+01:00), or without one, local to zoneId (2030-01-31T09:00:00), or a date (2030-01-31)',
    ]);
  });

  it('refuses a request rule that is no regular expression, and the keys of one class written on another, saying which reads them', () => {
    expect(problems({ ...BASE, accessStrategy: { '@class': HTTP_REQUEST, ipAddress: '([', userAgent: 'Firefox' } })).to.deep.equal(['accessStrategy.ipAddress: must be a regular expression']);
    expect(problems({ ...BASE, accessStrategy: { startingDateTime: '2030-01-31', ipAddress: '^10\\.' } })).to.deep.equal([
      'accessStrategy.startingDateTime: unknown key for this class (CAS ignores it): it is read only with TimeBasedRegisteredServiceAccessStrategy',
      'accessStrategy.ipAddress: unknown key for this class (CAS ignores it): it is read only with HttpRequestRegisteredServiceAccessStrategy',
    ]);
    expect(problems({ ...BASE, accessStrategy: { '@class': HTTP_REQUEST, headers: { '@class': 'java.util.TreeMap', 'X-Site': 'intranet' } } })[0]).to.match(
      /^accessStrategy\.headers: not supported by tessera: an HTTP request strategy matches the client address \(ipAddress\) and the User-Agent \(userAgent\) only/,
    );
    expect(problems({ ...BASE, accessStrategy: { '@class': `${CAS}.GroovyRegisteredServiceAccessStrategy` } })).to.deep.equal([
      'accessStrategy.@class: must be one of DefaultRegisteredServiceAccessStrategy, TimeBasedRegisteredServiceAccessStrategy, HttpRequestRegisteredServiceAccessStrategy (org.apereo.cas.services)',
    ]);
  });

  it('reads attribute-based activationCriteria with CAS defaults, round-trips it, and refuses a scripted one or an unknown key', () => {
    const criteria = { '@class': `${CAS}.AttributeBasedRegisteredServiceAccessStrategyActivationCriteria`, requiredAttributes: { '@class': 'java.util.HashMap', memberOf: ['java.util.ArrayList', ['faculty']] } };
    const read = strategy({ requiredAttributes: { memberOf: 'students' }, activationCriteria: criteria });
    expect(read.activation).to.deep.equal({ requiredAttributes: { memberOf: ['faculty'] }, operator: 'AND', allowIfInactive: true });
    const withOrder: AccessStrategy = { ...read, activation: { requiredAttributes: { mail: ['@example\\.org$'] }, operator: 'OR', allowIfInactive: false, order: 2 } };
    expect(parseServiceDefinition(toCasServiceJson(service({ accessStrategy: withOrder })))).to.deep.equal(service({ accessStrategy: withOrder }));
    expect(problems({ ...BASE, accessStrategy: { activationCriteria: { '@class': `${CAS}.GroovyRegisteredServiceAccessStrategyActivationCriteria`, groovyScript: 'file:/x.groovy' } } })).to.deep.equal([
      'accessStrategy.activationCriteria.@class: must be AttributeBasedRegisteredServiceAccessStrategyActivationCriteria (org.apereo.cas.services): the attribute rules apply to the principals whose attributes it names; tessera runs no script',
    ]);
    expect(problems({ ...BASE, accessStrategy: { activationCriteria: { ...criteria, operator: 'XOR', reverseMatch: true } } })).to.deep.equal([
      'accessStrategy.activationCriteria.reverseMatch: unknown key (known: @class, requiredAttributes, operator, allowIfInactive, order)',
      'accessStrategy.activationCriteria.operator: must be AND or OR',
    ]);
  });

  it('leaves delegatedAuthenticationPolicy to the module that reads it (delegation): a codec without that module calls it unknown', () => {
    const policy = { '@class': `${CAS}.DefaultRegisteredServiceDelegatedAuthenticationPolicy`, allowedProviders: ['java.util.ArrayList', ['GitHub']] };
    expect(problems({ ...BASE, accessStrategy: { delegatedAuthenticationPolicy: policy } })).to.deep.equal([
      'accessStrategy.delegatedAuthenticationPolicy: unknown key (known: @class, enabled, ssoEnabled, requiredAttributes, requireAllAttributes, caseInsensitive, rejectedAttributes, unauthorizedRedirectUrl, activationCriteria)',
    ]);
  });
});

describe('supportedProtocols as Apereo CAS writes it', () => {
  it('is kept when it names protocols, round-trips, and is left out when empty', () => {
    const parsed = parseServiceDefinition({ ...BASE, supportedProtocols: ['java.util.HashSet', ['CAS30', 'SAML1']] });
    expect(parsed.supportedProtocols).to.deep.equal(['CAS30', 'SAML1']);
    expect(toCasServiceJson({ ...parsed, id: 3 })['supportedProtocols']).to.deep.equal(['java.util.HashSet', ['CAS30', 'SAML1']]);
    expect(parseServiceDefinition(toCasServiceJson({ ...parsed, id: 3 }))).to.deep.equal({ ...parsed, id: 3 });
    expect(parseServiceDefinition({ ...BASE, supportedProtocols: ['java.util.HashSet', []] })).to.not.have.property('supportedProtocols');
    // The names the oidc module's service types give their protocols, on a service of any class.
    expect(OIDC_CLIENTS_CODEC.parse({ ...BASE, supportedProtocols: ['OIDC', 'OAUTH20'] }).supportedProtocols).to.deep.equal(['OIDC', 'OAUTH20']);
  });

  it('refuses a name it does not know, listing the ones it does', () => {
    expect(refusalOf(() => OIDC_CLIENTS_CODEC.parse({ ...BASE, supportedProtocols: ['java.util.HashSet', ['CAS3', 'SAML1']] }))).to.deep.equal([
      'supportedProtocols: CAS3: no protocol tessera knows (write CAS10, CAS20, CAS30, SAML1, OAUTH20, OIDC)',
    ]);
    expect(problems({ ...BASE, supportedProtocols: ['OIDC'] }), 'without the module that names it').to.deep.equal(['supportedProtocols: OIDC: no protocol tessera knows (write CAS10, CAS20, CAS30, SAML1)']);
  });
});
