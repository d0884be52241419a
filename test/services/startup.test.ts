import { expect } from 'chai';
import { runTessera } from '../support/built-server.js';
import { form, startTessera } from '../support/tessera.js';
import { basic, configFile, postService, REGISTRATION } from './support.js';

// docs/protocol.md §8 — no silent open registration
describe('services module start-up', () => {
  it('refuses to start without the required attribute: exit 2 naming both settings', () => {
    const { code, stderr } = runTessera(['--config', configFile({ modules: ['rest', 'services'], server: { port: 0 } })]);
    expect(code).to.equal(2);
    expect(stderr).to.include('registration.requiredAttribute.name: is required when the services module is on');
    expect(stderr).to.include('registration.requiredAttribute.valuePattern: is required when the services module is on');
  });

  it('runs without the rest module: registration checks Basic credentials through the central handlers; /v1/tickets answers 404', async () => {
    const tessera = await startTessera({ modules: ['services'], registration: REGISTRATION });
    try {
      const definition = { '@class': 'org.apereo.cas.services.CasRegisteredService', name: 'Alone', serviceId: '^https://alone\\.example\\.org/.*' };
      expect((await postService(tessera.url, definition, basic('casuser', 'wrong'))).status).to.equal(401);
      const saved = await postService(tessera.url, definition);
      expect(saved.status).to.equal(200);
      expect(((await saved.json()) as { name: string }).name).to.equal('Alone');
      expect((await fetch(`${tessera.url}/v1/tickets`, form({ username: 'casuser', password: 'Mellon' }))).status).to.equal(404);
    } finally {
      await tessera.close();
    }
  });
});
