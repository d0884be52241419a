import { aRegisteredService } from '@tessera/testkit';
import { expect } from 'chai';
import { BUILT_IN_CODEC, OIDC_CLIENTS_CODEC, parseServiceDefinition, toCasServiceJson } from '../../built-in-codec.js';
import { serviceDefinitionSchema as definitionSchema } from '../../../src/modules/services/service-definition.js';

const CAS = 'org.apereo.cas.services';

/** Definitions the CAS JSON codec accepts: a minimal one, one with every part in Apereo's wrapped form, one with plain lists. */
const ACCEPTED: readonly Record<string, unknown>[] = [
  { serviceId: '^https://app\\.example\\.org/.*', name: 'App' },
  {
    '@class': `${CAS}.CasRegisteredService`,
    id: 7,
    name: 'Staff only',
    serviceId: '^https://staff\\.example\\.org/.*',
    description: 'For staff',
    evaluationOrder: -1,
    accessStrategy: {
      '@class': `${CAS}.DefaultRegisteredServiceAccessStrategy`,
      enabled: true,
      ssoEnabled: false,
      requiredAttributes: { '@class': 'java.util.HashMap', memberOf: ['java.util.HashSet', ['staff']] },
    },
    attributeReleasePolicy: { '@class': `${CAS}.ReturnAllowedAttributeReleasePolicy`, allowedAttributes: ['java.util.ArrayList', ['mail']] },
    properties: { '@class': 'java.util.HashMap', jwtAsServiceTicket: { '@class': `${CAS}.DefaultRegisteredServiceProperty`, values: ['java.util.HashSet', ['true']] } },
  },
  { serviceId: '^https://.*', name: 'Plain', description: null, accessStrategy: { requiredAttributes: { memberOf: ['staff'] } }, attributeReleasePolicy: { '@class': `${CAS}.ReturnAllAttributeReleasePolicy` } },
];

// docs/protocol.md §11 — POST /v1/services hands its body to the CAS JSON codec; the schema the document shows must describe what it accepts
describe('docs/protocol.md §11 the documented service definition (CasServiceDefinition)', () => {
  const serviceDefinitionSchema = definitionSchema(BUILT_IN_CODEC.moduleKeys);

  it('accepts every definition the codec accepts, and what the route answers', () => {
    for (const definition of ACCEPTED) {
      expect(() => parseServiceDefinition(definition)).to.not.throw();
      const result = serviceDefinitionSchema.safeParse(definition);
      expect(result.success, JSON.stringify(result.error?.issues)).to.equal(true);
      const stored = toCasServiceJson({ ...aRegisteredService(), ...parseServiceDefinition(definition), id: 9 });
      expect(serviceDefinitionSchema.safeParse(stored).success, JSON.stringify(stored)).to.equal(true);
    }
  });

  it("documents the keys of the modules' service types, and accepts what the codec reads of them (an OAuth client, its secret null for a public one)", () => {
    const schema = definitionSchema(OIDC_CLIENTS_CODEC.moduleKeys);
    const client = { '@class': 'org.apereo.cas.support.oauth.services.OAuthRegisteredService', serviceId: '^https://rp\\.example\\.org/cb$', name: 'RP', clientId: 'rp', clientSecret: null, scopes: ['java.util.HashSet', ['profile']] };
    expect(() => OIDC_CLIENTS_CODEC.parse(client)).to.not.throw();
    expect(schema.safeParse(client).success).to.equal(true);
    expect(schema.safeParse(OIDC_CLIENTS_CODEC.render({ ...aRegisteredService(), ...OIDC_CLIENTS_CODEC.parse(client), id: 4 })).success).to.equal(true);
    expect(Object.keys(schema.shape)).to.include.members(['clientId', 'clientSecret', 'scopes', 'supportedGrantTypes', 'supportedResponseTypes']);
    expect(Object.keys(serviceDefinitionSchema.shape), 'without the module').to.not.include('clientId');
  });
});
