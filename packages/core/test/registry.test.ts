import { expect } from 'chai';
import {
  InvalidServiceDefinitionError,
  parseServiceDefinition,
  principalMeetsRequirements,
  releaseAttributes,
  selectService,
  compareServices,
  serviceComparisonKey,
} from '@tessera/core';
import { service } from './fakes.js';

function parseError(json: unknown): InvalidServiceDefinitionError {
  try {
    parseServiceDefinition(json, { path: 'services[0]' });
  } catch (error) {
    expect(error).to.be.instanceOf(InvalidServiceDefinitionError);
    return error as InvalidServiceDefinitionError;
  }
  return expect.fail('expected the definition to be refused');
}

describe('registered services (docs/protocol.md §4)', () => {
  describe('Apereo CAS JSON format', () => {
    it('loads a CAS service file unchanged, type wrappers included', () => {
      const parsed = parseServiceDefinition({
        '@class': 'org.apereo.cas.services.RegexRegisteredService',
        serviceId: '^https://app\\.example\\.org/.*',
        name: 'App',
        id: 10000001,
        description: 'an app',
        evaluationOrder: 5,
        accessStrategy: {
          '@class': 'org.apereo.cas.services.DefaultRegisteredServiceAccessStrategy',
          enabled: true,
          ssoEnabled: false,
          requiredAttributes: { '@class': 'java.util.HashMap', memberOf: ['java.util.HashSet', ['staff', 'faculty']] },
        },
        attributeReleasePolicy: {
          '@class': 'org.apereo.cas.services.ReturnAllowedAttributeReleasePolicy',
          allowedAttributes: ['java.util.ArrayList', ['mail']],
        },
        properties: {
          '@class': 'java.util.HashMap',
          jwtAsServiceTicket: { '@class': 'org.apereo.cas.services.DefaultRegisteredServiceProperty', values: ['java.util.HashSet', ['true']] },
        },
      });
      expect(parsed).to.deep.equal({
        id: 10000001,
        type: 'org.apereo.cas.services.RegexRegisteredService',
        name: 'App',
        serviceId: '^https://app\\.example\\.org/.*',
        description: 'an app',
        evaluationOrder: 5,
        accessStrategy: { enabled: true, ssoEnabled: false, requiredAttributes: { memberOf: ['staff', 'faculty'] } },
        attributeRelease: { kind: 'allowed', names: ['mail'] },
        properties: { jwtAsServiceTicket: ['true'] },
      });
    });

    it('accepts plain arrays and objects, and defaults to enabled, SSO, no release', () => {
      const parsed = parseServiceDefinition({
        serviceId: 'https://.*',
        name: 'plain',
        accessStrategy: { requiredAttributes: { memberOf: ['staff'] } },
        attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllAttributeReleasePolicy' },
      });
      expect(parsed.type).to.equal('org.apereo.cas.services.CasRegisteredService');
      expect(parsed.accessStrategy).to.deep.equal({ enabled: true, ssoEnabled: true, requiredAttributes: { memberOf: ['staff'] } });
      expect(parsed.attributeRelease).to.deep.equal({ kind: 'all' });
      expect(parseServiceDefinition({ serviceId: 'x', name: 'n' }).attributeRelease).to.deep.equal({ kind: 'none' });
    });

    it('names the field that is wrong', () => {
      expect(parseError({ name: 'n' }).field).to.equal('services[0].serviceId');
      expect(parseError({ serviceId: '([', name: 'n' }).message).to.equal('services[0].serviceId: is not a valid regular expression');
      expect(parseError({ serviceId: 'x' }).field).to.equal('services[0].name');
      expect(parseError({ serviceId: 'x', name: 'n', '@class': 'com.example.Other' }).field).to.equal('services[0].@class');
      expect(parseError({ serviceId: 'x', name: 'n', id: 'seven' }).field).to.equal('services[0].id');
      expect(parseError({ serviceId: 'x', name: 'n', evaluationOrder: 1.5 }).field).to.equal('services[0].evaluationOrder');
      expect(parseError({ serviceId: 'x', name: 'n', accessStrategy: { enabled: 'yes' } }).field).to.equal('services[0].accessStrategy.enabled');
      expect(parseError({ serviceId: 'x', name: 'n', attributeReleasePolicy: { '@class': 'x.Unknown' } }).field).to.equal(
        'services[0].attributeReleasePolicy.@class',
      );
      expect(parseError([]).field).to.equal('services[0].(definition)');
    });

    it('refuses a type outside the accepted list', () => {
      expect(() =>
        parseServiceDefinition({ '@class': 'org.apereo.cas.services.RegexRegisteredService', serviceId: 'x', name: 'n' }, { acceptedTypes: ['org.apereo.cas.services.CasRegisteredService'] }),
      ).to.throw(InvalidServiceDefinitionError, '@class');
    });
  });

  describe('matching', () => {
    it('matches the whole URL, case-insensitively', () => {
      const services = [service({ serviceId: 'https://app\\.example\\.org/.*' })];
      expect(selectService(services, 'HTTPS://APP.EXAMPLE.ORG/x')).to.equal(services[0]);
      expect(selectService(services, 'https://app.example.org.evil.com/x')).to.equal(undefined);
      expect(selectService(services, 'http://evil.com/?https://app.example.org/')).to.equal(undefined);
    });

    it('orders by evaluationOrder, then name, then id; the first enabled match wins', () => {
      const broad = service({ id: 1, name: 'broad', serviceId: 'https://.*', evaluationOrder: 10 });
      const narrow = service({ id: 2, name: 'narrow', serviceId: 'https://app\\..*', evaluationOrder: 1 });
      const disabled = service({ id: 3, name: 'a-disabled', serviceId: 'https://.*', evaluationOrder: 0, accessStrategy: { enabled: false, ssoEnabled: true, requiredAttributes: {} } });
      const ordered = [broad, narrow, disabled].sort(compareServices);
      expect(ordered.map((s) => s.id)).to.deep.equal([3, 2, 1]);
      expect(selectService(ordered, 'https://app.example.org/')).to.equal(narrow);
      expect(selectService(ordered, 'https://other.example.org/')).to.equal(broad);
      const tie = [service({ id: 9, name: 'Beta' }), service({ id: 8, name: 'alpha' }), service({ id: 7, name: 'alpha' })].sort(compareServices);
      expect(tie.map((s) => s.id)).to.deep.equal([7, 8, 9]);
    });

    it('an invalid pattern matches nothing', () => {
      expect(selectService([service({ serviceId: '([' })], '([')).to.equal(undefined);
    });
  });

  describe('access strategy and attribute release', () => {
    const principal = { id: 'casuser', attributes: { memberOf: ['staff', 'faculty'], mail: ['casuser@example.org'] } };

    it('each required attribute needs one accepted value (whole-value patterns)', () => {
      const requiring = (requiredAttributes: Record<string, string[]>) => service({ accessStrategy: { enabled: true, ssoEnabled: true, requiredAttributes } });
      expect(principalMeetsRequirements(requiring({ memberOf: ['admin', 'faculty'] }), principal)).to.equal(true);
      expect(principalMeetsRequirements(requiring({ memberOf: ['sta'] }), principal)).to.equal(false);
      expect(principalMeetsRequirements(requiring({ memberOf: ['st.*'] }), principal)).to.equal(true);
      expect(principalMeetsRequirements(requiring({ memberOf: ['staff'], mail: ['.*@example\\.org'] }), principal)).to.equal(true);
      expect(principalMeetsRequirements(requiring({ memberOf: ['staff'], eduPerson: ['x'] }), principal)).to.equal(false);
    });

    it('releases none, all, or an allowed list', () => {
      expect(releaseAttributes({ kind: 'none' }, principal.attributes)).to.deep.equal({});
      expect(releaseAttributes({ kind: 'all' }, principal.attributes)).to.deep.equal(principal.attributes);
      expect(releaseAttributes({ kind: 'allowed', names: ['mail', 'missing'] }, principal.attributes)).to.deep.equal({ mail: ['casuser@example.org'] });
    });
  });

  it('service comparison key: decoded, no fragment, lower case; malformed escapes survive', () => {
    expect(serviceComparisonKey('https%3A%2F%2FApp.org%2Fa#frag')).to.equal('https://app.org/a');
    expect(serviceComparisonKey('https://app.org/%zz%41')).to.equal('https://app.org/%zza');
  });
});
