import { expect } from 'chai';
import { z } from 'zod';
import { serviceDataKey, UnknownServiceDataError, type InvalidServiceDefinitionError } from '@tessera/core';
import { aRegisteredService } from '@tessera/testkit';
import { BUILT_IN_RELEASE_POLICY_CODECS, BUILT_IN_USERNAME_PROVIDER_CODECS, serviceCodec, ServiceTemplates, withServiceTemplates, type ServiceSectionCodec, type ServiceTypeCodec } from '../src/index.js';
import { isRecord, keyProblems } from '../src/services/codecs/cas-service-keys.js';
import { serviceDefinitionSchema } from '../src/modules/services/service-definition.js';
import { refusalOf } from './built-in-codec.js';

type Fail = (field: string, problem: string) => InvalidServiceDefinitionError;

// A module's service class, as a module declares one: its data is its own type, under its own key.
interface SampleClient {
  readonly sampleId: string;
  readonly confidential?: true;
}
const SAMPLE_CLIENT = serviceDataKey<SampleClient>('sampleClient');
const SAMPLE_CLASS = 'org.example.services.SampleClientService';
const SAMPLE_LEGACY_CLASS = 'org.example.legacy.SampleClientService';

const sampleType: ServiceTypeCodec<SampleClient> = {
  classes: [SAMPLE_CLASS, SAMPLE_LEGACY_CLASS],
  matchedByServiceUrl: false,
  data: SAMPLE_CLIENT,
  keys: { read: ['sampleId', 'confidential'], unsupported: { sampleLifetime: { instead: 'samples live as long as the server says' } } },
  refusedClasses: { SampleCallbackService: 'is the sample module’s own callback, which it registers itself' },
  protocols: ['SAMPLE'],
  documented: { sampleId: z.string().meta({ description: 'With SampleClientService: its id.' }) },
  parse(json: Readonly<Record<string, unknown>>, fail: Fail): SampleClient {
    const sampleId = json['sampleId'];
    if (typeof sampleId !== 'string' || sampleId === '') throw fail('sampleId', 'is required');
    const confidential = json['confidential'] ?? false;
    if (typeof confidential !== 'boolean') throw fail('confidential', 'must be a boolean');
    return { sampleId, ...(confidential && { confidential: true as const }) };
  },
  render: (client) => ({ sampleId: client.sampleId, ...(client.confidential && { confidential: true }) }),
};

// Keys any service may carry for a module: here one CAS knows and tessera otherwise refuses.
interface UsagePolicy {
  readonly messageCode: string;
}
const USAGE_POLICY = serviceDataKey<UsagePolicy>('usagePolicy');
const POLICY_CLASS = 'org.apereo.cas.services.DefaultRegisteredServiceAcceptableUsagePolicy';

const usageSection: ServiceSectionCodec<UsagePolicy> = {
  data: USAGE_POLICY,
  keys: { read: ['acceptableUsagePolicy'] },
  keyProblemsInside: (_key, value, field) => (isRecord(value) ? keyProblems(value, { read: ['@class', 'enabled', 'messageCode'] }, `${field}.`) : []),
  parse(json: Readonly<Record<string, unknown>>, fail: Fail): UsagePolicy | undefined {
    const policy = json['acceptableUsagePolicy'];
    if (policy === undefined || policy === null) return undefined;
    if (!isRecord(policy) || typeof policy['messageCode'] !== 'string') throw fail('acceptableUsagePolicy.messageCode', 'is required');
    return { messageCode: policy['messageCode'] };
  },
  render: (policy) => ({ acceptableUsagePolicy: { '@class': POLICY_CLASS, messageCode: policy.messageCode } }),
};

const parts = { releasePolicies: BUILT_IN_RELEASE_POLICY_CODECS, usernameProviders: BUILT_IN_USERNAME_PROVIDER_CODECS };
const codec = serviceCodec({ ...parts, serviceTypes: [sampleType], serviceSections: [usageSection] });
const CLIENT = { '@class': SAMPLE_CLASS, id: 4, name: 'Sample', serviceId: '^https://rp\\.example\\.org/cb$', sampleId: 'rp' };
const CAS_SERVICE = { '@class': 'org.apereo.cas.services.CasRegisteredService', id: 5, name: 'App', serviceId: '^https://app\\.example\\.org/.*' };

describe("a module's service types and sections in the service JSON (docs/adding-a-module.md §6.1)", () => {
  it("reads a service of the module's class into the module's data on it, under its key, and writes it back as it was", () => {
    const client = codec.parse({ ...CLIENT, confidential: true });
    expect(client.type).to.equal(SAMPLE_CLASS);
    expect(client.moduleData).to.deep.equal({ sampleClient: { sampleId: 'rp', confidential: true } });
    expect(SAMPLE_CLIENT.of(client)).to.deep.equal({ sampleId: 'rp', confidential: true });
    const stored = { ...aRegisteredService(), ...client, id: 4 };
    expect(codec.render(stored)).to.deep.include({ '@class': SAMPLE_CLASS, sampleId: 'rp', confidential: true });
    expect(codec.parse(codec.render(stored))).to.deep.equal(client);
    // Its older name is the same type, kept as written.
    expect(codec.parse({ ...CLIENT, '@class': SAMPLE_LEGACY_CLASS })).to.deep.include({ type: SAMPLE_LEGACY_CLASS, moduleData: { sampleClient: { sampleId: 'rp' } } });
  });

  it("its keys are read only with its classes, its unsupported keys refused with what to write, and its problems named with the others'", () => {
    const [unknown] = refusalOf(() => codec.parse({ ...CAS_SERVICE, sampleId: 'rp' }));
    expect(unknown).to.match(/^sampleId: unknown key \(known: @class, id, name, serviceId, .*acceptableUsagePolicy, theme, locale, contacts\)$/);
    expect(refusalOf(() => codec.parse({ ...CLIENT, sampleLifetime: 30 }))).to.deep.equal(['sampleLifetime: not supported by tessera: samples live as long as the server says']);
    expect(refusalOf(() => codec.parse({ ...CLIENT, sampleId: '', evaluationOrder: 'first' }))).to.deep.equal(['evaluationOrder: must be an integer', 'sampleId: is required']);
  });

  it('accepts its classes by default, names why a class near it is refused, and takes its protocol in supportedProtocols', () => {
    expect(refusalOf(() => codec.parse({ ...CLIENT, '@class': 'org.example.SampleCallbackService' }))).to.deep.equal(['@class: is the sample module’s own callback, which it registers itself']);
    expect(refusalOf(() => codec.parse(CLIENT, { acceptedTypes: [CAS_SERVICE['@class']] }))[0]).to.match(/^@class: must be one of org\.apereo\.cas\.services\.CasRegisteredService$/);
    expect(codec.parse({ ...CLIENT, supportedProtocols: ['SAMPLE', 'CAS30'] }).supportedProtocols).to.deep.equal(['SAMPLE', 'CAS30']);
    expect(refusalOf(() => codec.parse({ ...CAS_SERVICE, supportedProtocols: ['OTHER'] }))).to.deep.equal(['supportedProtocols: OTHER: no protocol tessera knows (write CAS10, CAS20, CAS30, SAML1, SAMPLE)']);
  });

  it('a section is read from a service of any class, its nested keys checked; a definition without it holds no data for it', () => {
    const policy = { '@class': POLICY_CLASS, messageCode: 'staff.aup' };
    expect(codec.parse({ ...CAS_SERVICE, acceptableUsagePolicy: policy }).moduleData).to.deep.equal({ usagePolicy: { messageCode: 'staff.aup' } });
    expect(codec.parse({ ...CLIENT, acceptableUsagePolicy: policy }).moduleData).to.deep.equal({ sampleClient: { sampleId: 'rp' }, usagePolicy: { messageCode: 'staff.aup' } });
    expect(codec.parse(CAS_SERVICE)).to.not.have.property('moduleData');
    const withPolicy = { ...aRegisteredService(), ...codec.parse({ ...CAS_SERVICE, acceptableUsagePolicy: policy }), id: 5 };
    expect(codec.parse(codec.render(withPolicy))).to.deep.equal(codec.parse({ ...CAS_SERVICE, acceptableUsagePolicy: policy }));
    expect(refusalOf(() => codec.parse({ ...CAS_SERVICE, acceptableUsagePolicy: { ...policy, enabledd: true } }))).to.deep.equal(['acceptableUsagePolicy.enabledd: unknown key; did you mean enabled?']);
    // Without the module's section the key is CAS's, refused as ever.
    const withoutSection = serviceCodec({ ...parts, serviceTypes: [sampleType] });
    expect(refusalOf(() => withoutSection.parse({ ...CAS_SERVICE, acceptableUsagePolicy: policy }))[0]).to.match(/^acceptableUsagePolicy: not supported by tessera/);
  });

  it('a template of the type applies to a service of its other class, not to a CAS service', () => {
    const template = codec.parseTemplate({ '@class': SAMPLE_LEGACY_CLASS, templateName: 'Confidential', sampleId: 'template', confidential: true }, 'Confidential', '/templates/Confidential.json');
    const templated = withServiceTemplates(codec, new ServiceTemplates([template]));
    expect(templated.parse({ ...CLIENT, templateName: 'Confidential' }).moduleData).to.deep.equal({ sampleClient: { sampleId: 'rp', confidential: true } });
    expect(refusalOf(() => templated.parse({ ...CAS_SERVICE, templateName: 'Confidential' }))[0]).to.match(/^templateName: template "Confidential" .* is for org\.example\.legacy\.SampleClientService services, not org\.apereo\.cas\.services\.CasRegisteredService$/);
  });

  it("refuses to write data no listed module reads, rather than drop it", () => {
    const stray = { ...aRegisteredService(), moduleData: { goneModule: { x: 1 } } };
    expect(() => codec.render(stray)).to.throw(UnknownServiceDataError, 'a service holds data under goneModule, which no module tessera knows reads (known: usagePolicy)');
  });

  it('documents the modules’ keys in the registration API’s schema of a definition', () => {
    const schema = serviceDefinitionSchema(codec.moduleKeys);
    expect(schema.safeParse({ ...CLIENT }).success).to.equal(true);
    expect(schema.safeParse({ ...CLIENT, sampleId: 7 }).success).to.equal(false);
    const documented = z.toJSONSchema(schema, { io: 'input' }) as { $defs: Record<string, { properties: Record<string, unknown> }> };
    expect(documented.$defs['CasServiceDefinition']?.properties['sampleId']).to.deep.equal({ type: 'string', description: 'With SampleClientService: its id.' });
  });

  it('refuses a class, a key or a data key two parts would claim', () => {
    const build = (serviceTypes: ServiceTypeCodec[], serviceSections: ServiceSectionCodec[] = []) => () => serviceCodec({ ...parts, serviceTypes, serviceSections });
    expect(build([sampleType, { ...sampleType, data: serviceDataKey('other'), classes: [SAMPLE_LEGACY_CLASS] }])).to.throw(`the service class ${SAMPLE_LEGACY_CLASS} is declared twice`);
    expect(build([{ ...sampleType, classes: ['org.apereo.cas.services.RegexRegisteredService'] }])).to.throw('the service class org.apereo.cas.services.RegexRegisteredService is declared twice');
    expect(build([{ ...sampleType, keys: { read: ['name'] } }])).to.throw('the service key name is read twice');
    expect(build([sampleType], [usageSection, { ...usageSection, data: serviceDataKey('another') }])).to.throw('the service key acceptableUsagePolicy is read twice');
    expect(build([sampleType], [{ ...usageSection, keys: { read: ['sampleId'] } }])).to.throw('the service key sampleId is read twice');
    expect(build([sampleType], [{ ...usageSection, data: SAMPLE_CLIENT }])).to.throw('the service data key sampleClient is declared twice');
    expect(() => serviceDataKey('with.dot')).to.throw(/must be a word/);
  });
});
