import { expect } from 'chai';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeWithRedis } from '@tessera/testkit/redis';
import { runTessera } from '../support/built-server.js';
import { form, login, serviceTicket, startTessera, type Tessera } from '../support/tessera.js';
import { postService, REGISTRATION } from './support.js';

const CAS = 'org.apereo.cas.services';
const SERVICE = `${CAS}.CasRegisteredService`;
const STRATEGY = `${CAS}.DefaultRegisteredServiceAccessStrategy`;

/** The template of Apereo's own browser test of service templates, from the corpus (its README). */
const CORPUS_TEMPLATE = fileURLToPath(new URL('../fixtures/apereo-services/wpillacam__cas_apereo/WithAttributeReleasePolicy.json', import.meta.url));

/** Written for this test: a template whose access strategy lets in administrators only. */
const ADMINS_ONLY = {
  '@class': SERVICE,
  templateName: 'AdminsOnly',
  accessStrategy: { '@class': STRATEGY, requiredAttributes: { '@class': 'java.util.HashMap', memberOf: ['java.util.HashSet', ['admins']] } },
};

function folder(files: Record<string, unknown>): string {
  const directory = mkdtempSync(join(tmpdir(), 'tessera-templates-'));
  for (const [name, json] of Object.entries(files)) writeFileSync(join(directory, name), JSON.stringify(json));
  return directory;
}

function templatesFolder(): string {
  const directory = folder({ 'AdminsOnly.json': ADMINS_ONLY });
  copyFileSync(CORPUS_TEMPLATE, join(directory, 'WithAttributeReleasePolicy.json'));
  return directory;
}

const service = (id: number, host: string, extra: Record<string, unknown>) => ({ '@class': SERVICE, id, name: host, serviceId: `^https://${host}\\.example\\.org/.*`, ...extra });

const RELEASED = 'https://released.example.org/app';
const GUARDED = 'https://guarded.example.org/app';
const CONFIGURED = 'https://configured.example.org/app';
const POSTED = 'https://posted.example.org/app';
const STAFF_ONLY = 'https://staff.example.org/app';

function behavesAsMerged(storage: () => Record<string, unknown>): void {
  let tessera: Tessera;
  before(async () => {
    tessera = await startTessera({
      ...storage(),
      modules: ['rest', 'services'],
      registration: REGISTRATION,
      users: [
        { username: 'casuser', password: 'Mellon', attributes: { email: ['casuser@example.org'], username: ['casuser'], mail: ['casuser@example.org'], memberOf: ['staff', 'faculty'] } },
        { username: 'alice', password: 'secret', attributes: { memberOf: ['students'] } },
      ],
      services: [
        service(2, 'staff', { accessStrategy: { '@class': STRATEGY, requiredAttributes: { '@class': 'java.util.HashMap', memberOf: ['java.util.HashSet', ['staff']] } } }),
        service(23, 'configured', { templateName: 'AdminsOnly' }),
      ],
      serviceTemplatesDirectory: templatesFolder(),
      servicesDirectory: folder({
        'released.json': service(21, 'released', { templateName: 'WithAttributeReleasePolicy' }),
        // Its access strategy is the default one: in CAS it does not undo the template's.
        'guarded.json': service(22, 'guarded', { templateName: 'AdminsOnly,WithAttributeReleasePolicy', accessStrategy: { '@class': STRATEGY, enabled: true } }),
      }),
    });
  });
  after(() => tessera.close());

  const grantStatus = async (url: string, username = 'casuser', password = 'Mellon') =>
    (await fetch(`${tessera.url}/v1/tickets/${await login(tessera.url, username, password)}`, form({ service: url }))).status;

  it("the template's release policy applies on the wire: /p3/serviceValidate releases what it allows, and nothing else", async () => {
    const ticket = await serviceTicket(tessera.url, await login(tessera.url), RELEASED);
    const response = await fetch(`${tessera.url}/p3/serviceValidate?service=${encodeURIComponent(RELEASED)}&ticket=${ticket}&format=JSON`);
    const body = (await response.json()) as { serviceResponse: { authenticationSuccess: { user: string; attributes: Record<string, unknown> } } };
    const { user, attributes } = body.serviceResponse.authenticationSuccess;
    expect(user).to.equal('casuser');
    expect(attributes).to.deep.include({ email: ['casuser@example.org'], username: ['casuser'] });
    expect(attributes).not.to.have.any.keys('mail', 'memberOf');
  });

  it("a template's access strategy refuses as the service's own would: servicesDirectory, services and POST /v1/services alike", async () => {
    const refused = await grantStatus(STAFF_ONLY, 'alice', 'secret');
    expect(refused).to.not.equal(200);
    expect(await grantStatus(STAFF_ONLY)).to.equal(200);
    expect(await grantStatus(GUARDED)).to.equal(refused);
    expect(await grantStatus(CONFIGURED)).to.equal(refused);

    const posted = await postService(tessera.url, service(24, 'posted', { templateName: 'AdminsOnly' }));
    expect(posted.status).to.equal(200);
    const saved = (await posted.json()) as Record<string, unknown>;
    expect(saved).not.to.have.property('templateName');
    expect(saved['accessStrategy']).to.deep.include({ requiredAttributes: { '@class': 'java.util.HashMap', memberOf: ['java.util.HashSet', ['admins']] } });
    // Read back from the store on every grant: the merged definition is what was saved.
    expect(await grantStatus(POSTED)).to.equal(refused);
  });

  it('POST /v1/services naming no template there is 400, naming the name, and saves nothing', async () => {
    const response = await postService(tessera.url, service(25, 'nowhere', { templateName: 'Staff' }));
    expect(response.status).to.equal(400);
    expect(await response.text()).to.include('no service template is named "Staff" (templates: AdminsOnly, WithAttributeReleasePolicy)');
    expect(await grantStatus('https://nowhere.example.org/app')).to.not.equal(200);
  });
}

describe('service templates (serviceTemplatesDirectory) on the wire', () => {
  describe('on the memory store', () => behavesAsMerged(() => ({})));
  describeWithRedis('on Redis (the merged definitions round-trip through the store)', (redis) => {
    behavesAsMerged(() => ({ storage: { type: 'redis', redis: { url: redis().url, keyPrefix: 'templates:' } } }));
  });
});

describe('tessera services validate --templates', function () {
  this.timeout(30_000);

  it('a name without a template: one line naming the file, the name and the templates there; exit 1', () => {
    const services = folder({ 'portal.json': service(3, 'portal', { templateName: 'AdminsOnly,Staff' }) });
    const { code, stdout, stderr } = runTessera(['services', 'validate', services, '--templates', templatesFolder()]);
    expect(code).to.equal(1);
    expect(stdout).to.equal('');
    expect(stderr).to.equal(
      `${join(services, 'portal.json')}: templateName: no service template is named "Staff" (templates: AdminsOnly, WithAttributeReleasePolicy) (service "portal", id 3)\n` +
        `1 problem(s) in 1 file(s) of ${services}; nothing was imported.\n`,
    );
  });

  it('without --templates a file naming one is refused; with them it is valid', () => {
    const services = folder({ 'portal.json': service(3, 'portal', { templateName: 'AdminsOnly' }) });
    const without = runTessera(['services', 'validate', services]);
    expect(without.code).to.equal(1);
    expect(without.stderr).to.include(`${join(services, 'portal.json')}: templateName: names service templates, and none are given`);
    const valid = runTessera(['services', 'validate', services, '--templates', templatesFolder()]);
    expect(valid.code).to.equal(0);
    expect(valid.stdout).to.include(`${join(services, 'portal.json')}: valid, "portal" as id 3`);
  });

  it("every problem of the template files, each naming its file, with the services' in the same run", () => {
    const templates = folder({ 'AdminsOnly.json': { ...ADMINS_ONLY, templateName: 'Admins' }, 'Broken.json': { templateName: 'Broken', evaluationOrder: 'soon' } });
    const services = folder({ 'portal.json': service(3, 'portal', { templateName: 'Nothing' }) });
    const { code, stderr } = runTessera(['services', 'validate', services, '--templates', templates]);
    expect(code).to.equal(1);
    expect(stderr.trim().split('\n')).to.deep.equal([
      `${join(templates, 'AdminsOnly.json')}: templateName: must be the file name without .json ("AdminsOnly"): CAS finds a template by both`,
      `${join(templates, 'Broken.json')}: evaluationOrder: must be an integer`,
      `${join(services, 'portal.json')}: templateName: no service template is named "Nothing" (the templates folder has none) (service "portal", id 3)`,
      `3 problem(s) in 1 file(s) of ${services}; nothing was imported.`,
    ]);
  });
});
