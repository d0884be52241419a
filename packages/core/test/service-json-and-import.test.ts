import { expect } from 'chai';
import { ImportServices, parseServiceDefinition, toCasServiceJson, type RandomSource } from '@tessera/core';
import { coreWithFakes } from './harness.js';
import { service } from './fakes.js';

const ONES: RandomSource = { bytes: (size) => new Uint8Array(size).fill(1) };
const NEW = { '@class': 'org.apereo.cas.services.CasRegisteredService', name: 'New', serviceId: '^https://new\\.example\\.org/.*' };

// docs/protocol.md §4 — stored definitions round-trip as Apereo CAS JSON; imports go through the registry port
describe('toCasServiceJson', () => {
  it('round-trips through parseServiceDefinition', () => {
    const original = service({
      id: 42,
      description: 'd',
      evaluationOrder: 7,
      accessStrategy: { enabled: false, ssoEnabled: true, requiredAttributes: { memberOf: ['staff'] } },
      attributeRelease: { kind: 'allowed', names: ['mail'] },
      properties: { jwtAsServiceTicket: ['true'] },
    });
    expect(parseServiceDefinition(toCasServiceJson(original))).to.deep.equal(original);
    for (const attributeRelease of [{ kind: 'none' }, { kind: 'all' }] as const) {
      expect(parseServiceDefinition(toCasServiceJson(service({ attributeRelease })))).to.deep.equal(service({ attributeRelease }));
    }
  });

  it('writes Java collections as CAS does', () => {
    const json = toCasServiceJson(service({ accessStrategy: { enabled: true, ssoEnabled: true, requiredAttributes: { memberOf: ['staff'] } } }));
    expect(json['accessStrategy']).to.deep.include({ requiredAttributes: { '@class': 'java.util.HashMap', memberOf: ['java.util.HashSet', ['staff']] } });
  });
});

describe('ImportServices', () => {
  it('saves each definition, reports the one it replaced, and gives id-less ones an unused id', async () => {
    const { registry, events } = coreWithFakes();
    const importer = new ImportServices(registry, ONES, events);
    const [replacing, fresh] = await importer.execute([
      { ...parseServiceDefinition(NEW), id: 1 },
      parseServiceDefinition({ ...NEW, name: 'Fresh' }),
    ]);
    expect(replacing?.replaced?.name).to.equal('app');
    expect(replacing?.saved.name).to.equal('New');
    expect(fresh).to.not.have.property('replaced');
    expect(fresh?.saved.id).to.equal(0x010101010101 + 1);
    expect((await registry.list()).map((s) => s.name)).to.deep.equal(['Fresh', 'New']);
    expect(events.ofType('service.saved').map(({ name, replaced, principal }) => [name, replaced, principal])).to.deep.equal([
      ['New', true, undefined],
      ['Fresh', false, undefined],
    ]);
  });
});
