import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { TOTP_SECOND_FACTOR } from '@tessera/core/modules/otp';
import { BUILT_IN_RELEASE_POLICY_CODECS, BUILT_IN_USERNAME_PROVIDER_CODECS, serviceCodec } from '../../../src/index.js';
import { delegationPolicySection, POLICY_CLASS } from '../../../src/modules/delegation/index.js';
import { refusalOf } from '../../built-in-codec.js';

// The codec as a server has it: the built-in parts and the delegation module's service section.
const codec = serviceCodec({
  releasePolicies: BUILT_IN_RELEASE_POLICY_CODECS,
  usernameProviders: BUILT_IN_USERNAME_PROVIDER_CODECS,
  secondFactors: [TOTP_SECOND_FACTOR],
  serviceSections: [delegationPolicySection],
});

const SERVICE = { '@class': 'org.apereo.cas.services.CasRegisteredService', id: 7, name: 'Partner app', serviceId: '^https://app\\.example\\.org/.*' };
const withPolicy = (policy: unknown, strategy: Record<string, unknown> = {}) => ({
  ...SERVICE,
  accessStrategy: { '@class': 'org.apereo.cas.services.DefaultRegisteredServiceAccessStrategy', ...strategy, delegatedAuthenticationPolicy: policy },
});

describe('delegation: accessStrategy.delegatedAuthenticationPolicy in service definitions', () => {
  it('reads Apereo’s DefaultRegisteredServiceDelegatedAuthenticationPolicy into the module’s data, its list as CAS writes one', () => {
    const service = codec.parse(withPolicy({ '@class': POLICY_CLASS, allowedProviders: ['java.util.ArrayList', ['partner', 'company']], permitUndefined: false, exclusive: true }));
    expect(service.moduleData).to.deep.equal({ delegationPolicy: { allowedProviders: ['partner', 'company'], permitUndefined: false, exclusive: true } });
    // The strategy's own keys are read as before.
    expect(service.accessStrategy.enabled).to.equal(true);
  });

  it('fills in Apereo’s defaults (permitUndefined true, exclusive false), a plain list and no @class accepted', () => {
    expect(codec.parse(withPolicy({ allowedProviders: ['partner'] })).moduleData).to.deep.equal({ delegationPolicy: { allowedProviders: ['partner'], permitUndefined: true, exclusive: false } });
    expect(codec.parse(withPolicy({})).moduleData).to.deep.equal({ delegationPolicy: { allowedProviders: [], permitUndefined: true, exclusive: false } });
  });

  it('keeps nothing for a service without the policy', () => {
    expect(codec.parse(SERVICE).moduleData).to.equal(undefined);
    expect(codec.parse(withPolicy(null)).moduleData).to.equal(undefined);
  });

  it('round-trips: rendered inside the access strategy, beside its own keys, and read back the same', () => {
    const service = codec.parse(withPolicy({ allowedProviders: ['partner'], exclusive: true }, { requiredAttributes: { '@class': 'java.util.HashMap', memberOf: ['java.util.HashSet', ['staff']] } }));
    const json = codec.render({ ...service, id: 7 });
    const strategy = json['accessStrategy'] as Record<string, unknown>;
    expect(strategy['delegatedAuthenticationPolicy']).to.deep.equal({ '@class': POLICY_CLASS, allowedProviders: ['java.util.ArrayList', ['partner']], permitUndefined: true, exclusive: true });
    expect(strategy['requiredAttributes']).to.deep.equal({ '@class': 'java.util.HashMap', memberOf: ['java.util.HashSet', ['staff']] });
    expect(codec.parse(json)).to.deep.equal(service);
  });

  it('is read inside every class of access strategy', () => {
    const timed = withPolicy({ allowedProviders: ['partner'] }, { '@class': 'org.apereo.cas.services.TimeBasedRegisteredServiceAccessStrategy', startingDateTime: '2020-01-01T00:00:00Z' });
    expect(codec.parse(timed).moduleData).to.deep.equal({ delegationPolicy: { allowedProviders: ['partner'], permitUndefined: true, exclusive: false } });
  });

  it('refuses what it cannot read, every problem named by its field at once', () => {
    expect(refusalOf(() => codec.parse(withPolicy({ allowedProviders: 'partner', permitUndefined: 'no', exclusive: 1 })))).to.deep.equal([
      'accessStrategy.delegatedAuthenticationPolicy.allowedProviders: must be a list of provider ids',
      'accessStrategy.delegatedAuthenticationPolicy.permitUndefined: must be a boolean',
      'accessStrategy.delegatedAuthenticationPolicy.exclusive: must be a boolean',
    ]);
    expect(refusalOf(() => codec.parse(withPolicy({ '@class': 'org.example.GroovyDelegatedAuthenticationPolicy' })))).to.deep.equal([
      'accessStrategy.delegatedAuthenticationPolicy.@class: must be DefaultRegisteredServiceDelegatedAuthenticationPolicy (org.apereo.cas.services)',
    ]);
    expect(refusalOf(() => codec.parse(withPolicy('partner')))).to.deep.equal(['accessStrategy.delegatedAuthenticationPolicy: must be an object']);
    const [typo] = refusalOf(() => codec.parse(withPolicy({ allowedProvider: ['partner'] })));
    expect(typo).to.match(/^accessStrategy\.delegatedAuthenticationPolicy\.allowedProvider: unknown key.*allowedProviders/);
  });

  it('loads the Apereo service file of the corpus that writes it', () => {
    const file = JSON.parse(readFileSync(new URL('../../../../../test/fixtures/apereo-services/LEEDASILVA__cas/delegated-login-access-strategy--services--Sample-1.json', import.meta.url), 'utf8')) as Record<string, unknown>;
    expect(codec.parse(file).moduleData).to.deep.equal({ delegationPolicy: { allowedProviders: [], permitUndefined: false, exclusive: false } });
  });

  it('without the module’s section (a codec of no module), the key stays unknown: nothing is silently dropped', () => {
    const bare = serviceCodec({ releasePolicies: BUILT_IN_RELEASE_POLICY_CODECS, usernameProviders: BUILT_IN_USERNAME_PROVIDER_CODECS });
    const [problem] = refusalOf(() => bare.parse(withPolicy({ allowedProviders: ['partner'] })));
    expect(problem).to.match(/^accessStrategy\.delegatedAuthenticationPolicy: unknown key/);
  });
});
