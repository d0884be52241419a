import { expect } from 'chai';
import { InvalidServiceDefinitionError } from '@tessera/core';
import { LEGACY_DEFAULT_EVALUATION_ORDER } from '../src/index.js';
import { legacyServiceDefinition } from './built-in-codec.js';

// docs/protocol.md §3.9 — the form POST /v1/services/add/{tgt} reads
describe('the legacy service form (docs/protocol.md §3.9)', () => {
  it('describes a RegexRegisteredService; enabled and SSO by default, evaluated last', () => {
    const definition = legacyServiceDefinition({ serviceId: '^https://old\\.example\\.org/.*', name: 'Old', description: 'legacy' });
    expect(definition).to.include({ type: 'org.apereo.cas.services.RegexRegisteredService', name: 'Old', description: 'legacy', evaluationOrder: LEGACY_DEFAULT_EVALUATION_ORDER });
    expect(definition.accessStrategy).to.deep.equal({ enabled: true, ssoEnabled: true, requiredAttributes: {} });
  });

  it('reads evaluationOrder and the flags', () => {
    const definition = legacyServiceDefinition({ serviceId: 'x', name: 'n', description: 'd', evaluationOrder: '7', enabled: 'false', ssoEnabled: 'FALSE' });
    expect(definition.evaluationOrder).to.equal(7);
    expect(definition.accessStrategy).to.include({ enabled: false, ssoEnabled: false });
  });

  it('a missing or invalid field is refused naming it', () => {
    const form = { serviceId: 'x', name: 'n', description: 'd' };
    for (const [field, bad] of [['description', ' '], ['serviceId', '('], ['evaluationOrder', '1.5'], ['enabled', 'maybe']] as const) {
      expect(() => legacyServiceDefinition({ ...form, [field]: bad }), field).to.throw(InvalidServiceDefinitionError).with.property('field', field);
    }
  });
});
