import { expect } from 'chai';
import { InvalidServiceDefinitionError } from '@tessera/core';
import { parseServiceDefinition } from './built-in-codec.js';

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
        attributeRelease: { type: 'org.apereo.cas.services.ReturnAllowedAttributeReleasePolicy', allowedAttributes: ['mail'] },
        properties: { jwtAsServiceTicket: ['true'] },
      });
    });

    it('accepts plain arrays and objects, and defaults to enabled, SSO, and Apereo’s release (no principal attribute)', () => {
      const parsed = parseServiceDefinition({
        serviceId: 'https://.*',
        name: 'plain',
        accessStrategy: { requiredAttributes: { memberOf: ['staff'] } },
        attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllAttributeReleasePolicy' },
      });
      expect(parsed.type).to.equal('org.apereo.cas.services.CasRegisteredService');
      expect(parsed.accessStrategy).to.deep.equal({ enabled: true, ssoEnabled: true, requiredAttributes: { memberOf: ['staff'] } });
      expect(parsed.attributeRelease).to.deep.equal({ type: 'org.apereo.cas.services.ReturnAllAttributeReleasePolicy' });
      expect(parseServiceDefinition({ serviceId: 'x', name: 'n' }).attributeRelease).to.deep.equal({ type: 'org.apereo.cas.services.ReturnAllowedAttributeReleasePolicy', allowedAttributes: [] });
    });

    it('names the field that is wrong', () => {
      expect(parseError({ name: 'n' }).field).to.equal('services[0].serviceId');
      expect(parseError({ serviceId: '([', name: 'n' }).message).to.equal('services[0].serviceId: is not a valid regular expression');
      expect(parseError({ serviceId: 'x', name: 7 }).field).to.equal('services[0].name');
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
});
