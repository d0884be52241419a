import { expect } from 'chai';
import {
  BUILT_IN_RELEASE_POLICIES,
  BUILT_IN_USERNAME_PROVIDERS,
  cryptoRandomSource,
  DENY_ALL_ATTRIBUTES,
  InvalidServiceDefinitionError,
  RETURN_ALL_ATTRIBUTES,
  RETURN_ALLOWED_ATTRIBUTES,
  ServicePolicies,
  type AttributeReleasePolicy,
  type ServicePolicy,
  type UsernameProvider,
} from '@tessera/core';
import { RegisterService } from '@tessera/core/modules/services';
import { CasJwtCodec } from '@tessera/core/modules/tokens';
import { BUILT_IN_RELEASE_POLICY_CODECS, BUILT_IN_USERNAME_PROVIDER_CODECS, serviceCodec, type ServicePolicyCodec } from '../src/index.js';
import { servicesModule } from '../src/modules/services/index.js';
import { parseServiceDefinition, toCasServiceJson } from './built-in-codec.js';
import { service } from './fakes.js';
import { createTgt, grantSt, testServer, testTokenKeys } from './harness.js';
import { child, parseSamlResponse, samlAttributes, samlRequest, text, type XmlNode } from './saml-documents.js';
import { samlValidate } from './saml-exchange.js';

const CAS = 'org.apereo.cas.services';
const NEW = { '@class': `${CAS}.CasRegisteredService`, name: 'New', serviceId: '^https://new\\.example\\.org/.*' };

function problemsOf(json: Record<string, unknown>, parse = parseServiceDefinition): string[] {
  try {
    parse(json, { path: 'services[0]' });
    return [];
  } catch (error) {
    if (!(error instanceof InvalidServiceDefinitionError)) throw error;
    return error.message.split('\n');
  }
}

describe('the built-in policies in the service JSON, each through its codec part', () => {
  const released = (attributeReleasePolicy: unknown) => parseServiceDefinition({ ...NEW, attributeReleasePolicy }).attributeRelease;

  it('reads each release policy by its class, written fully, by its simple name or in CAS 4’s package, as one policy', () => {
    for (const [type, settings] of [
      [RETURN_ALL_ATTRIBUTES, {}],
      [RETURN_ALLOWED_ATTRIBUTES, { allowedAttributes: ['mail'] }],
      [DENY_ALL_ATTRIBUTES, {}],
    ] as const) {
      const simple = type.slice(type.lastIndexOf('.') + 1);
      for (const written of [type, simple, `org.jasig.cas.services.${simple}`]) {
        expect(released({ '@class': written, ...settings }), written).to.deep.equal({ type, ...settings });
      }
    }
    expect(released({ '@class': RETURN_ALLOWED_ATTRIBUTES, allowedAttributes: ['java.util.ArrayList', ['mail', 'cn']] })).to.deep.equal({ type: RETURN_ALLOWED_ATTRIBUTES, allowedAttributes: ['mail', 'cn'] });
    expect(released({ '@class': RETURN_ALLOWED_ATTRIBUTES })).to.deep.equal({ type: RETURN_ALLOWED_ATTRIBUTES, allowedAttributes: [] });
    // Absent: Apereo's default, a ReturnAllowedAttributeReleasePolicy allowing nothing.
    expect(released(undefined)).to.deep.equal({ type: RETURN_ALLOWED_ATTRIBUTES, allowedAttributes: [] });
  });

  it('writes each as CAS does and reads back what it wrote', () => {
    const policies: ServicePolicy[] = [{ type: RETURN_ALL_ATTRIBUTES }, { type: RETURN_ALLOWED_ATTRIBUTES, allowedAttributes: ['mail'] } as ServicePolicy, { type: DENY_ALL_ATTRIBUTES }];
    for (const attributeRelease of policies) {
      const json = toCasServiceJson(service({ attributeRelease }));
      expect(parseServiceDefinition(json)).to.deep.equal(service({ attributeRelease }));
    }
    expect(toCasServiceJson(service({ attributeRelease: policies[1]! }))['attributeReleasePolicy']).to.deep.equal({ '@class': RETURN_ALLOWED_ATTRIBUTES, allowedAttributes: ['java.util.ArrayList', ['mail']] });
    expect(toCasServiceJson(service({ attributeRelease: policies[2]! }))['attributeReleasePolicy']).to.deep.equal({ '@class': DENY_ALL_ATTRIBUTES });
  });

  it('refuses a release policy of a class no registration has, naming those there are', () => {
    expect(problemsOf({ ...NEW, attributeReleasePolicy: { '@class': 'org.example.SiteAttributeReleasePolicy' } })).to.deep.equal([
      'services[0].attributeReleasePolicy.@class: must be ReturnAllAttributeReleasePolicy, ReturnAllowedAttributeReleasePolicy, ReturnMappedAttributeReleasePolicy, DenyAllAttributeReleasePolicy or ChainingAttributeReleasePolicy',
    ]);
  });

  it('reads the default username provider as no provider of the service’s own, and writes none', () => {
    for (const usernameAttributeProvider of [{ '@class': `${CAS}.DefaultRegisteredServiceUsernameProvider` }, { '@class': 'DefaultRegisteredServiceUsernameProvider', canonicalizationMode: 'NONE', encryptUsername: false }, null]) {
      const parsed = parseServiceDefinition({ ...NEW, usernameAttributeProvider });
      expect(parsed).to.not.have.property('usernameProvider');
      expect(toCasServiceJson({ ...parsed, id: 1 })).to.not.have.property('usernameAttributeProvider');
    }
  });

  it('refuses the options of the default username provider it does not have, and any other provider, as before', () => {
    expect(problemsOf({ ...NEW, usernameAttributeProvider: { '@class': `${CAS}.DefaultRegisteredServiceUsernameProvider`, canonicalizationMode: 'UPPER' } })).to.deep.equal([
      'services[0].usernameAttributeProvider.canonicalizationMode: not supported by tessera: the user name is the principal id as it is; accepted only as NONE',
    ]);
    expect(problemsOf({ ...NEW, usernameAttributeProvider: { '@class': `${CAS}.GroovyRegisteredServiceUsernameProvider`, groovyScript: 'file:/x.groovy' } })).to.deep.equal([
      `services[0].usernameAttributeProvider: not supported by tessera: the user in every answer is the principal id; accepted only as ${CAS}.DefaultRegisteredServiceUsernameProvider without options, ${CAS}.PrincipalAttributeRegisteredServiceUsernameProvider or ${CAS}.AnonymousRegisteredServiceUsernameAttributeProvider`,
    ]);
    expect(problemsOf({ ...NEW, usernameAttributeProvider: 'mail' })[0]).to.match(/^services\[0\]\.usernameAttributeProvider: not supported by tessera/);
  });
});

/** A test's own policy classes, registered from here and nowhere else: a chain holding other policies, a fixed attribute, a user named by an attribute. */
interface Chain extends ServicePolicy {
  readonly policies: readonly ServicePolicy[];
}
interface Department extends ServicePolicy {
  readonly department: string;
}
interface AttributeUsername extends ServicePolicy {
  readonly attribute: string;
}
const CHAIN = 'org.example.BundleAttributeReleasePolicy';
const DEPARTMENT = 'org.example.DepartmentAttributeReleasePolicy';
const ATTRIBUTE_USERNAME = 'org.example.AttributeUsernameProvider';

const chaining: AttributeReleasePolicy<Chain> = {
  type: CHAIN,
  async release(policy, request, policies) {
    let released = {};
    for (const inner of policy.policies) released = { ...released, ...(await policies.release(inner, request)) };
    return released;
  },
};
const department: AttributeReleasePolicy<Department> = { type: DEPARTMENT, release: (policy) => Promise.resolve({ department: [policy.department] }) };
const attributeUsername: UsernameProvider<AttributeUsername> = {
  type: ATTRIBUTE_USERNAME,
  username: (provider, { principal }) => Promise.resolve(principal.attributes[provider.attribute]?.[0] ?? principal.id),
};

const chainCodec: ServicePolicyCodec<Chain> = {
  type: CHAIN,
  keys: { read: ['@class', 'policies'] },
  keyProblemsInside: (key, value, field, nested) => (key === 'policies' && Array.isArray(value) ? value.flatMap((inner, index) => nested.releasePolicy(inner, `${field}[${index}]`)) : []),
  parse(json, parsing) {
    const list = json['policies'];
    if (!Array.isArray(list)) throw parsing.fail('policies', 'must be a list of policies');
    return { policies: list.map((inner, index) => parsing.releasePolicy(inner, `policies[${index}]`)) };
  },
  render: (policy, nested) => ({ policies: policy.policies.map((inner) => nested.releasePolicy(inner)) }),
};
const departmentCodec: ServicePolicyCodec<Department> = {
  type: DEPARTMENT,
  keys: { read: ['@class', 'department'] },
  parse(json, { fail }) {
    const name = json['department'];
    if (typeof name !== 'string') throw fail('department', 'must be a string');
    return { department: name };
  },
  render: (policy) => ({ department: policy.department }),
};
const attributeUsernameCodec: ServicePolicyCodec<AttributeUsername> = {
  type: ATTRIBUTE_USERNAME,
  keys: { read: ['@class', 'attribute'] },
  parse: (json, { fail }) => {
    const attribute = json['attribute'];
    if (typeof attribute !== 'string') throw fail('attribute', 'must be an attribute name');
    return { attribute };
  },
  render: (provider) => ({ attribute: provider.attribute }),
};

const withTestClasses = serviceCodec({
  releasePolicies: [...BUILT_IN_RELEASE_POLICY_CODECS, chainCodec, departmentCodec],
  usernameProviders: [...BUILT_IN_USERNAME_PROVIDER_CODECS, attributeUsernameCodec],
});

describe("a test's own policy registration, added without touching the codec or the core", () => {
  const CHAINED = {
    ...NEW,
    attributeReleasePolicy: {
      '@class': CHAIN,
      policies: [
        { '@class': 'ReturnAllowedAttributeReleasePolicy', allowedAttributes: ['java.util.ArrayList', ['memberOf']] },
        { '@class': DEPARTMENT, department: 'physics' },
      ],
    },
    usernameAttributeProvider: { '@class': ATTRIBUTE_USERNAME, attribute: 'mail' },
  };

  it('is read and written through its codec part, the policies it holds through theirs', () => {
    const parsed = withTestClasses.parse(CHAINED);
    expect(parsed.attributeRelease).to.deep.equal({
      type: CHAIN,
      policies: [
        { type: RETURN_ALLOWED_ATTRIBUTES, allowedAttributes: ['memberOf'] },
        { type: DEPARTMENT, department: 'physics' },
      ],
    });
    expect(parsed.usernameProvider).to.deep.equal({ type: ATTRIBUTE_USERNAME, attribute: 'mail' });
    const rendered = withTestClasses.render({ ...parsed, id: 4 });
    expect(rendered['attributeReleasePolicy']).to.deep.equal({
      '@class': CHAIN,
      policies: [
        { '@class': RETURN_ALLOWED_ATTRIBUTES, allowedAttributes: ['java.util.ArrayList', ['memberOf']] },
        { '@class': DEPARTMENT, department: 'physics' },
      ],
    });
    expect(withTestClasses.parse(rendered)).to.deep.equal({ ...parsed, id: 4 });
  });

  it('problems within the policies it holds name their whole path', () => {
    const holding = (...policies: unknown[]) => ({ ...NEW, attributeReleasePolicy: { '@class': CHAIN, policies } });
    expect(problemsOf(holding({ '@class': RETURN_ALLOWED_ATTRIBUTES, allowedAttribute: ['mail'] }), withTestClasses.parse)).to.deep.equal([
      'services[0].attributeReleasePolicy.policies[0].allowedAttribute: unknown key; did you mean allowedAttributes?',
    ]);
    expect(problemsOf(holding({ '@class': DEPARTMENT, department: 'physics' }, { '@class': 'org.example.Missing' }), withTestClasses.parse)).to.deep.equal([
      'services[0].attributeReleasePolicy.policies[1].@class: must be ReturnAllAttributeReleasePolicy, ReturnAllowedAttributeReleasePolicy, ReturnMappedAttributeReleasePolicy, DenyAllAttributeReleasePolicy, ChainingAttributeReleasePolicy, BundleAttributeReleasePolicy or DepartmentAttributeReleasePolicy',
    ]);
    expect(problemsOf(holding({ '@class': DEPARTMENT, department: 7 }), withTestClasses.parse)).to.deep.equal(['services[0].attributeReleasePolicy.policies[0].department: must be a string']);
  });

  it('is unknown to a codec without it', () => {
    expect(problemsOf(CHAINED)[0]).to.match(/^services\[0\]\.usernameAttributeProvider: not supported by tessera/);
  });

  it('decides what a service registered over REST is told: the user and attributes of CAS answers, SAML 1.1 and JWT service tickets', async () => {
    const keys = testTokenKeys();
    const server = testServer({
      tokenKeys: keys,
      servicePolicies: new ServicePolicies({ releasePolicies: [...BUILT_IN_RELEASE_POLICIES, chaining, department], usernameProviders: [...BUILT_IN_USERNAME_PROVIDERS, attributeUsername] }),
      users: { dora: { password: 'pw', attributes: { mail: ['dora@example.org'], memberOf: ['physicists'], secret: ['kept'] } } },
      modules: ({ core, tickets, registry, events }) => [
        servicesModule({
          current: true,
          earlier: false,
          acceptedTypes: [NEW['@class']],
          codec: withTestClasses,
          registerService: new RegisterService({ authenticator: core.authenticator, tickets, registry, events, random: cryptoRandomSource }, { requiredAttribute: { name: 'memberOf', valuePattern: 'staff' } }),
        }),
      ],
    });
    const register = async (definition: Record<string, unknown>) => {
      const registered = await server.http.post('/cas/v1/services').set('Authorization', `Basic ${Buffer.from('casuser:Mellon').toString('base64')}`).send(definition);
      expect(registered.status, registered.text).to.equal(200);
      return registered.body as Record<string, unknown>;
    };
    expect((await register(CHAINED))['usernameAttributeProvider']).to.deep.equal({ '@class': ATTRIBUTE_USERNAME, attribute: 'mail' });
    await register({ ...CHAINED, name: 'As JWT', serviceId: '^https://jwt-new\\.example\\.org/.*', properties: { jwtAsServiceTicket: ['true'] } });

    const url = 'https://new.example.org/app';
    const tgt = await createTgt(server, { username: 'dora', password: 'pw' });
    const json = await server.http.get('/cas/p3/serviceValidate').query({ service: url, ticket: await grantSt(server, tgt, url), format: 'JSON' });
    expect(json.status, json.text).to.equal(200);
    const success = (json.body as { serviceResponse: { authenticationSuccess: { user: string; attributes: Record<string, unknown> } } }).serviceResponse.authenticationSuccess;
    expect(success.user).to.equal('dora@example.org');
    expect(success.attributes).to.deep.include({ memberOf: ['physicists'], department: ['physics'] });
    expect(Object.keys(success.attributes).sort()).to.deep.equal(['authenticationDate', 'department', 'isFromNewLogin', 'memberOf']);
    expect((await server.http.get('/cas/validate').query({ service: url, ticket: await grantSt(server, tgt, url) })).text).to.equal('yes\ndora@example.org\n');

    const saml = await samlValidate(server, url, samlRequest(await grantSt(server, tgt, url)));
    const assertion = (parseSamlResponse(saml.text).response['saml:Assertion'] as XmlNode[])[0]!;
    expect(text(child(child(assertion, 'saml:AuthenticationStatement'), 'saml:Subject'), 'saml:NameIdentifier')).to.equal('dora@example.org');
    expect(samlAttributes(assertion)).to.deep.include({ memberOf: ['physicists'], department: ['physics'] });

    const jwtUrl = 'https://jwt-new.example.org/app';
    const claims = await new CasJwtCodec(keys, server.clock).decode(await grantSt(server, tgt, jwtUrl), { audience: jwtUrl });
    expect(claims).to.include({ sub: 'dora@example.org', memberOf: 'physicists', department: 'physics' });
    expect(claims).to.not.have.any.keys('secret', 'mail', 'isFromNewLogin');
  });
});
