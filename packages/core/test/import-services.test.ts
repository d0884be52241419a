import { expect } from 'chai';
import { ImportServices, type RandomSource } from '@tessera/core';
import { coreWithFakes } from './harness.js';
import { definition } from './fakes.js';

const ONES: RandomSource = { bytes: (size) => new Uint8Array(size).fill(1) };
const NEW = definition({ name: 'New', serviceId: '^https://new\\.example\\.org/.*' });

// docs/protocol.md §4 — imports go through the registry port
describe('ImportServices', () => {
  it('saves each definition, reports the one it replaced, and gives id-less ones an unused id', async () => {
    const { registry, events } = coreWithFakes();
    const importer = new ImportServices(registry, ONES, events);
    const [replacing, fresh] = await importer.execute([
      { ...NEW, id: 1 },
      { ...NEW, name: 'Fresh' },
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

  it('saves a definition whose host is not pinned as it is, and reports it with what to write instead', async () => {
    const { registry, events } = coreWithFakes();
    const importer = new ImportServices(registry, ONES, events);
    await importer.execute([
      { ...NEW, id: 7, name: 'Open', serviceId: '^https://open\\.example\\.org.*' },
      { ...NEW, id: 8, name: 'Pinned' },
    ]);
    expect((await registry.findById(7))?.serviceId).to.equal('^https://open\\.example\\.org.*');
    expect(events.ofType('service.saved').map(({ name }) => name)).to.deep.equal(['Open', 'Pinned']);
    expect(events.ofType('service.host.unpinned')).to.deep.equal([
      {
        type: 'service.host.unpinned',
        serviceId: 7,
        name: 'Open',
        warnings: [
          'service "Open" (id 7): its host is not pinned: serviceId ^https://open\\.example\\.org.* does not end the host, so it also matches URLs of other hosts (<host>.evil.example, <host>@evil.example); end the host with /, :port, ? or $',
        ],
      },
    ]);
  });
});
