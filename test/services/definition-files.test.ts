import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { login, serviceTicket, startTessera } from '../support/tessera.js';
import { runTessera } from '../support/built-server.js';
import { configFile } from './support.js';

const CAS = 'org.apereo.cas.services';

function folder(files: Record<string, string>): string {
  const directory = mkdtempSync(join(tmpdir(), 'tessera-definitions-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(directory, name), text);
  return directory;
}

/** A service file as Apereo CAS writes them: comments, and a key misspelt by hand. */
const MISSPELT = `{
  /* The intranet: staff only */
  "@class": "${CAS}.CasRegisteredService",
  "id": 3,
  "name": "Intranet",
  "serviceId": "^https://intranet\\\\.example\\\\.org/.*",
  "accessStrategy": {
    "@class": "${CAS}.DefaultRegisteredServiceAccessStrategy",
    // singular by mistake: dropping it would admit everyone
    "requiredAttribute": { "memberOf": ["java.util.HashSet", ["staff"]] }
  },
  "usernameAttributeProvider": { "@class": "${CAS}.GroovyRegisteredServiceUsernameProvider", "groovyScript": "file:/x.groovy" }
}
`;

/** The same service, written correctly, with both kinds of comment and a trailing comma. */
const COMMENTED = `// Apereo CAS service file
{
  "@class": "${CAS}.CasRegisteredService", /* as CAS writes it */
  "id": 3,
  "name": "Intranet",
  "serviceId": "^https://intranet\\\\.example\\\\.org/.*",
  "accessStrategy": {
    "@class": "${CAS}.DefaultRegisteredServiceAccessStrategy",
    "requiredAttributes": { "memberOf": ["java.util.HashSet", ["staff"]] }, // staff only
  },
}
`;

function problemLines(stderr: string): string[] {
  return stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && line !== 'tessera: invalid configuration');
}

describe('service definition files: strict keys, comments, errors naming file, service and key', function () {
  this.timeout(30_000);

  it('the server refuses to start on a file with an unknown or unsupported key: exit 2, one line per problem', () => {
    const directory = folder({ 'intranet.json': MISSPELT });
    const { code, stdout, stderr } = runTessera(['--config', configFile({ servicesDirectory: directory, server: { port: 0 } })]);
    expect(code).to.equal(2);
    expect(stdout).to.not.include('ready');
    const file = join(directory, 'intranet.json');
    expect(problemLines(stderr)).to.deep.equal([
      `servicesDirectory: ${file}: accessStrategy.requiredAttribute: unknown key; did you mean requiredAttributes? (service "Intranet", id 3)`,
      `servicesDirectory: ${file}: usernameAttributeProvider: not supported by tessera: the user in every answer is the principal id; accepted only as ${CAS}.DefaultRegisteredServiceUsernameProvider without options, ${CAS}.PrincipalAttributeRegisteredServiceUsernameProvider, ${CAS}.AnonymousRegisteredServiceUsernameAttributeProvider or ${CAS}.PairwiseOidcRegisteredServiceUsernameAttributeProvider (service "Intranet", id 3)`,
    ]);
  });

  it('names the environment variable the folder came from', () => {
    const directory = folder({ 'intranet.json': MISSPELT });
    const { code, stderr } = runTessera(['--config', configFile({ server: { port: 0 } })], { TESSERA_SERVICES_DIRECTORY: directory });
    expect(code).to.equal(2);
    expect(problemLines(stderr)[0]).to.match(/^servicesDirectory \(TESSERA_SERVICES_DIRECTORY\): .*intranet\.json: accessStrategy\.requiredAttribute: unknown key/);
  });

  it('a service in the configuration itself is checked the same way', () => {
    const services = [{ '@class': `${CAS}.CasRegisteredService`, id: 3, name: 'Intranet', serviceId: '^https://i/.*', accessStrategy: { requiredAttribute: { memberOf: ['staff'] } } }];
    const { code, stderr } = runTessera(['--config', configFile({ services, server: { port: 0 } })]);
    expect(code).to.equal(2);
    expect(problemLines(stderr)).to.deep.equal(['services[0].accessStrategy.requiredAttribute: unknown key; did you mean requiredAttributes? (service "Intranet", id 3)']);
  });

  it('a file that is not JSON is named with the line and column at fault', () => {
    const directory = folder({ 'broken.json': '{\n  "name": "x",\n  "id": \n}\n' });
    const { code, stderr } = runTessera(['--config', configFile({ servicesDirectory: directory, server: { port: 0 } })]);
    expect(code).to.equal(2);
    expect(problemLines(stderr)).to.deep.equal([`servicesDirectory: ${join(directory, 'broken.json')}: not valid JSON: value expected at line 4, column 1`]);
  });

  it('files with // and /* */ comments and trailing commas load, and the service they define is enforced', async () => {
    const tessera = await startTessera({ services: [], servicesDirectory: folder({ 'intranet.json': COMMENTED }) });
    try {
      const staff = await login(tessera.url);
      expect(await serviceTicket(tessera.url, staff, 'https://intranet.example.org/home')).to.match(/^ST-/);
      const student = await login(tessera.url, 'alice', 'secret');
      const refused = await fetch(`${tessera.url}/v1/tickets/${student}`, { method: 'POST', body: new URLSearchParams({ service: 'https://intranet.example.org/home' }) });
      expect(refused.status).to.equal(401);
    } finally {
      await tessera.close();
    }
  });
});
