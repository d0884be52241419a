import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BUILT_IN_RELEASE_POLICY_CODECS, type ServicePolicyCodec, type ServiceSectionCodec, type ServiceTypeCodec } from '@tessera/adapter-koa';
import { aRegisteredService } from '@tessera/testkit';
import { denyAllAttributes, returnAllAttributes, selectService, serviceDataKey, type AttributeReleasePolicy, type ServicePolicy } from '@tessera/core';
import { moduleServiceTypes } from '../src/modules/index.js';
import { BUILT_IN_SERVICE_POLICIES, serverPolicyRegistrations, servicePolicyParts } from '../src/service-policies.js';

const PAGE = 'docs/services.md';
const page = readFileSync(fileURLToPath(new URL(`../../../${PAGE}`, import.meta.url)), 'utf8');
const DEFINITION = { name: 'App', serviceId: '^https://app\\.example\\.org/.*' };

/** The keys of a codec part the page names nowhere, as `key` or as `prefix.key`. */
function undocumented(codec: ServicePolicyCodec, prefix: string): string[] {
  return undocumentedKeys(codec.keys, prefix);
}

function undocumentedKeys({ read, descriptive = [], unsupported = {} }: ServiceTypeCodec['keys'], prefix: string): string[] {
  return [...read, ...descriptive, ...Object.keys(unsupported)].filter((key) => !page.includes(`\`${key}\``) && !page.includes(`\`${prefix}.${key}\``));
}

const FRIENDLY = 'org.example.FriendlyAttributeReleasePolicy';
const friendly: AttributeReleasePolicy = { type: FRIENDLY, release: () => Promise.resolve({ greeting: ['hello'] }) };
const friendlyCodec: ServicePolicyCodec = { type: FRIENDLY, keys: { read: ['@class'] }, parse: () => ({}), render: () => ({}) };

describe('service policies: the built-in ones and every module’s, one registry and one codec', () => {
  it(`every policy class the server has, and each of its keys, is in ${PAGE}`, () => {
    const { releasePolicies, usernameProviders } = serverPolicyRegistrations();
    for (const [registrations, prefix] of [
      [releasePolicies, 'attributeReleasePolicy'],
      [usernameProviders, 'usernameAttributeProvider'],
    ] as const) {
      for (const { codec } of registrations) {
        const simpleName = codec.type.slice(codec.type.lastIndexOf('.') + 1);
        expect(page, codec.type).to.include(`\`${simpleName}\``);
        expect(undocumented(codec, prefix), codec.type).to.deep.equal([]);
      }
    }
    // Every listed module's service classes and the keys they read, and the keys of its service sections.
    const { serviceTypes, serviceSections } = serverPolicyRegistrations();
    for (const type of serviceTypes) {
      for (const name of type.classes) expect(page, name).to.include(`\`${name.slice(name.lastIndexOf('.') + 1)}\``);
      expect(undocumentedKeys(type.keys, ''), type.classes[0]).to.deep.equal([]);
    }
    for (const section of serviceSections) {
      expect(undocumentedKeys(section.keys, ''), section.data.key).to.deep.equal([]);
      expect(undocumentedKeys({ read: section.accessStrategyKeys ?? [] }, 'accessStrategy'), section.data.key).to.deep.equal([]);
    }
    expect(undocumented(friendlyCodec, 'attributeReleasePolicy'), 'the check finds a key the page does not name').to.deep.equal([]);
    expect(undocumented({ ...friendlyCodec, keys: { read: ['@class', 'greetingLanguage'] } }, 'attributeReleasePolicy')).to.deep.equal(['greetingLanguage']);
  });

  it("a module's declared policy is read by the codec and honoured by the registry", async () => {
    const parts = servicePolicyParts(serverPolicyRegistrations([{}, { servicePolicies: { releasePolicies: [{ behaviour: friendly, codec: friendlyCodec }] } }]));
    const definition = parts.codec.parse({ ...DEFINITION, attributeReleasePolicy: { '@class': FRIENDLY } });
    expect(definition.attributeRelease).to.deep.equal({ type: FRIENDLY });
    const service = aRegisteredService({ ...definition, id: 1 });
    const released = await parts.policies.releasedAttributes({ principal: { id: 'casuser', attributes: {} }, authentication: {}, service, serviceUrl: 'https://app.example.org/' });
    expect(released).to.deep.equal({ greeting: ['hello'] });
    expect(() => servicePolicyParts(serverPolicyRegistrations()).codec.parse({ ...DEFINITION, attributeReleasePolicy: { '@class': FRIENDLY } })).to.throw(/@class: must be/);
  });

  it('refuses a registration whose two parts name different classes, and a class registered twice', () => {
    const mismatched = { behaviour: denyAllAttributes, codec: friendlyCodec };
    expect(() => servicePolicyParts({ releasePolicies: [mismatched] })).to.throw(`a policy registration pairs ${denyAllAttributes.type} with the codec part of ${FRIENDLY}`);
    const twice = { behaviour: returnAllAttributes, codec: BUILT_IN_RELEASE_POLICY_CODECS[0]! };
    expect(() => servicePolicyParts({ releasePolicies: [...(BUILT_IN_SERVICE_POLICIES.releasePolicies ?? []), twice] })).to.throw(/registered twice/);
  });

  it('the server codec writes what the registry reads: a stored built-in policy round-trips', () => {
    const { codec } = servicePolicyParts(serverPolicyRegistrations());
    const allowed = { type: 'org.apereo.cas.services.ReturnAllowedAttributeReleasePolicy', allowedAttributes: ['mail'] } as ServicePolicy;
    const service = aRegisteredService({ id: 3, attributeRelease: allowed });
    expect(codec.parse(codec.render(service))).to.deep.equal(service);
  });

  it("a module's declared service type and section are read by the codec into its data on the service", () => {
    const sampleType: ServiceTypeCodec<{ sampleId: string }> = {
      classes: ['org.example.SampleService'],
      matchedByServiceUrl: false,
      data: serviceDataKey('sample'),
      keys: { read: ['sampleId'] },
      parse: (json) => ({ sampleId: String(json['sampleId']) }),
      render: (data) => ({ sampleId: data.sampleId }),
    };
    const sampleSection: ServiceSectionCodec<{ note: string }> = {
      data: serviceDataKey('sampleNote'),
      keys: { read: ['sampleNote'] },
      parse: (json) => (typeof json['sampleNote'] === 'string' ? { note: json['sampleNote'] } : undefined),
      render: (data) => ({ sampleNote: data.note }),
    };
    const { codec } = servicePolicyParts(serverPolicyRegistrations([{}, { serviceTypes: [sampleType], serviceSections: [sampleSection] }]));
    const definition = codec.parse({ ...DEFINITION, '@class': 'org.example.SampleService', sampleId: 'rp', sampleNote: 'hello' });
    expect(definition.moduleData).to.deep.equal({ sample: { sampleId: 'rp' }, sampleNote: { note: 'hello' } });
    expect(() => servicePolicyParts(serverPolicyRegistrations([{ serviceTypes: [sampleType] }, { serviceTypes: [sampleType] }]))).to.throw('the service class org.example.SampleService is declared twice');
  });

  it("the oidc module's clients are read whether or not it is on, and never found by a CAS service URL, on or off", () => {
    const { codec } = servicePolicyParts(serverPolicyRegistrations());
    const client = codec.parse({ '@class': 'org.apereo.cas.services.OidcRegisteredService', id: 4, name: 'RP', serviceId: '^https://rp\\.example\\.org/.*', clientId: 'rp', clientSecret: 'a-secret-of-at-least-16' });
    const service = aRegisteredService({ ...client, id: 4 });
    const cas = aRegisteredService({ id: 5, serviceId: '^https://.*', evaluationOrder: 9 });
    for (const modules of [['rest', 'login', 'oidc'], ['rest']]) {
      expect(selectService([service, cas], 'https://rp.example.org/cb', moduleServiceTypes(modules)), modules.join()).to.equal(cas);
    }
  });

  it("every listed module's second-factor providers are known to the codec, on or off; another id is refused", () => {
    const { codec } = servicePolicyParts(serverPolicyRegistrations());
    const mfa = (providers: readonly string[]) => ({ ...DEFINITION, multifactorPolicy: { multifactorAuthenticationProviders: providers } });
    expect(codec.parse(mfa(['mfa-gauth'])).multifactorPolicy?.providers).to.deep.equal(['mfa-gauth']);
    expect(codec.parse(mfa(['mfa-webauthn'])).multifactorPolicy?.providers).to.deep.equal(['mfa-webauthn']);
    expect(() => codec.parse(mfa(['mfa-duo']))).to.throw(/names mfa-duo, which tessera does not have; its providers are mfa-gauth \(a one-time code\), mfa-webauthn \(a security key or passkey\)/);
    const withKeys = servicePolicyParts(serverPolicyRegistrations([{}, { secondFactors: [{ id: 'mfa-keys', description: 'a security key' }] }]));
    expect(withKeys.codec.parse(mfa(['mfa-keys'])).multifactorPolicy?.providers, "a module's declared provider").to.deep.equal(['mfa-keys']);
    expect(() => withKeys.codec.parse(mfa(['mfa-gauth']))).to.throw(/names mfa-gauth, which tessera does not have; its one provider is mfa-keys \(a security key\)/);
    const both = servicePolicyParts(serverPolicyRegistrations([{ secondFactors: [{ id: 'mfa-gauth', description: 'a one-time code' }] }, { secondFactors: [{ id: 'mfa-keys', description: 'a security key' }] }]));
    expect(() => both.codec.parse(mfa(['mfa-duo']))).to.throw(/its providers are mfa-gauth \(a one-time code\), mfa-keys \(a security key\)/);
    expect(() => servicePolicyParts(serverPolicyRegistrations([{ secondFactors: [{ id: 'mfa-keys', description: 'a' }] }, { secondFactors: [{ id: 'mfa-keys', description: 'b' }] }]))).to.throw(
      'the second-factor provider mfa-keys is declared twice',
    );
  });
});
