import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError, initialServices, parseConfig } from '@tessera/cli-server';

function directoryWith(files: Record<string, unknown>): string {
  const directory = mkdtempSync(join(tmpdir(), 'tessera-services-'));
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(join(directory, name), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return directory;
}

/** An Apereo CAS service file as CAS itself writes them. */
const casFile = {
  '@class': 'org.apereo.cas.services.CasRegisteredService',
  serviceId: '^https://portal\\.example\\.org/.*',
  name: 'Portal',
  id: 10000001,
  evaluationOrder: 10,
  accessStrategy: { '@class': 'org.apereo.cas.services.DefaultRegisteredServiceAccessStrategy', enabled: true, ssoEnabled: false },
  attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllowedAttributeReleasePolicy', allowedAttributes: ['java.util.ArrayList', ['mail']] },
};

async function startupError(config: Parameters<typeof initialServices>[0]): Promise<string> {
  try {
    await initialServices(config);
  } catch (error) {
    if (error instanceof ConfigurationError) return error.message;
    throw error;
  }
  return expect.fail('expected a ConfigurationError');
}

// docs/protocol.md §4 — definitions load at start from a directory of Apereo CAS JSON files
describe('servicesDirectory (docs/protocol.md §4)', () => {
  it('loads every *.json file next to the configured services; services without an id get the next free one', async () => {
    const directory = directoryWith({ 'Portal-10000001.json': casFile, 'README.txt': 'not a service' });
    const config = parseConfig({ services: [{ name: 'App', serviceId: '^https://app/.*' }], servicesDirectory: directory });
    const services = await initialServices(config);
    expect(services.map((service) => [service.id, service.name])).to.deep.equal([
      [10000002, 'App'],
      [10000001, 'Portal'],
    ]);
    expect(services[1]).to.deep.include({ evaluationOrder: 10, attributeRelease: { type: 'org.apereo.cas.services.ReturnAllowedAttributeReleasePolicy', allowedAttributes: ['mail'] } });
    expect(services[1]!.accessStrategy).to.deep.equal({ enabled: true, ssoEnabled: false, requiredAttributes: {} });
  });

  it('a bad file stops the start with a message naming the file and the field', async () => {
    const directory = directoryWith({ 'good.json': casFile, 'bad.json': { name: 'No pattern' } });
    const message = await startupError(parseConfig({ servicesDirectory: directory }));
    expect(message).to.equal(`servicesDirectory: ${join(directory, 'bad.json')}: serviceId: is required (a regular expression) (service "No pattern")`);
  });

  it('a file that is not JSON names the file', async () => {
    const directory = directoryWith({ 'broken.json': '{ "name": ' });
    expect(await startupError(parseConfig({ servicesDirectory: directory }))).to.match(/^servicesDirectory: .*broken\.json: not valid JSON/);
  });

  it('an id used by a configured service and a file is refused', async () => {
    const directory = directoryWith({ 'portal.json': casFile });
    const config = parseConfig({ services: [{ id: 10000001, name: 'App', serviceId: '^https://app/.*' }], servicesDirectory: directory });
    expect(await startupError(config)).to.equal(`servicesDirectory: ${join(directory, 'portal.json')}: id 10000001 is already used by services[0]`);
  });

  it('a folder that cannot be read is named', async () => {
    const missing = join(tmpdir(), 'no-such-tessera-services');
    expect(await startupError(parseConfig({ servicesDirectory: missing }))).to.equal(`servicesDirectory: ${missing}: cannot read it (ENOENT)`);
  });
});
