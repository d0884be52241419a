import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTessera } from '../support/built-server.js';
import { configFile } from './support.js';

const CAS = 'org.apereo.cas.services.CasRegisteredService';

function folder(files: Record<string, string>): string {
  const directory = mkdtempSync(join(tmpdir(), 'tessera-import-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(directory, name), text);
  return directory;
}

const config = () =>
  configFile({
    services: [{ '@class': CAS, id: 1, name: 'Configured', serviceId: '^https://c\\.example\\.org/.*', evaluationOrder: 5 }],
    servicesDirectory: folder({ 'late.json': JSON.stringify({ '@class': CAS, id: 2, name: 'From folder', serviceId: '^https://f/.*', evaluationOrder: 1 }) }),
  });

// tessera services list | import DIR
describe('tessera services (CLI)', function () {
  this.timeout(30_000);

  it('list: configuration and servicesDirectory in evaluation order, and says REST registrations are not shown', () => {
    const { code, stdout, stderr } = runTessera(['services', 'list', '--config', config()]);
    expect(code).to.equal(0);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).to.match(/^ID\s+ORDER\s+ENABLED\s+NAME\s+SERVICE ID$/);
    expect(lines.slice(1).map((line) => line.split(/\s{2,}/)[3])).to.deep.equal(['From folder', 'Configured']);
    expect(stderr).to.match(/registered over REST .* not shown/);
  });

  it('import: reports every bad file by file and field, exit 1, nothing imported', () => {
    const directory = folder({
      'a.json': JSON.stringify({ '@class': CAS, id: 7, name: 'A', serviceId: '^https://a/.*' }),
      'b.json': JSON.stringify({ '@class': CAS, name: 'B', serviceId: '^(https' }),
      'c.json': '{"name": ',
      'd.json': JSON.stringify({ '@class': CAS, id: 7, name: 'D', serviceId: 'x' }),
      'notes.txt': 'ignored',
    });
    const { code, stdout, stderr } = runTessera(['services', 'import', directory, '--config', config()]);
    expect(code).to.equal(1);
    expect(stdout).to.equal('');
    expect(stderr).to.include(`${join(directory, 'b.json')}: serviceId: is not a valid regular expression`);
    expect(stderr).to.include(`${join(directory, 'c.json')}: not valid JSON`);
    expect(stderr).to.include(`${join(directory, 'd.json')}: id 7 is already used by ${join(directory, 'a.json')}`);
    expect(stderr).to.include('3 problem(s) in 4 file(s)');
  });

  it('import with the memory store: validates and shows what would load, and says nothing was kept', () => {
    const directory = folder({
      'a.json': JSON.stringify({ '@class': CAS, id: 1, name: 'Replacement', serviceId: '^https://a/.*' }),
      'b.json': JSON.stringify({ '@class': CAS, name: 'New', serviceId: '^https://b/.*' }),
    });
    const { code, stdout } = runTessera(['services', 'import', directory, '--config', config()]);
    expect(code).to.equal(0);
    expect(stdout).to.include(`${join(directory, 'a.json')}: valid, would load "Replacement" as id 1, replacing "Configured"`);
    expect(stdout).to.include(`${join(directory, 'b.json')}: valid, would load "New" as a new service`);
    expect(stdout).to.match(/Nothing was imported: the service registry is in memory/);
  });

  it('validate: files and folders, comments allowed; every problem names the file, the key and the service; reads no configuration', () => {
    const directory = folder({
      'a.json': `// Apereo CAS writes comments\n{ "@class": "${CAS}", "id": 7, "name": "A", /* pattern */ "serviceId": "^https://a/.*" }`,
      'b.json': JSON.stringify({ '@class': CAS, name: 'B', serviceId: '^https://b/.*' }),
    });
    const single = join(folder({ 'c.json': JSON.stringify({ '@class': CAS, id: 8, name: 'C', serviceId: '^https://c/.*' }) }), 'c.json');
    // No storage is opened: a MongoDB nobody runs does not matter.
    const unreachable = { TESSERA_STORAGE__TYPE: 'mongo', TESSERA_STORAGE__MONGO__URI: 'mongodb://127.0.0.1:1' };
    const valid = runTessera(['services', 'validate', directory, single], unreachable);
    expect(valid.code, valid.stderr).to.equal(0);
    expect(valid.stdout.trim().split('\n')).to.deep.equal([
      `${join(directory, 'a.json')}: valid, "A" as id 7`,
      `${join(directory, 'b.json')}: valid, "B" without an id (one is assigned when it is loaded)`,
      `${single}: valid, "C" as id 8`,
      '3 service file(s) valid.',
    ]);

    const bad = folder({ 'x.json': JSON.stringify({ '@class': CAS, id: 9, name: 'X', serviceId: '^https://x/.*', attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllowedAttributeReleasePolicy', allowedAttributes: ['mail'], principalIdAttribute: 'mail' }, theme: 'x', logutType: 'NONE' }) });
    const invalid = runTessera(['services', 'validate', bad]);
    expect(invalid.code).to.equal(1);
    expect(invalid.stdout).to.equal('');
    const file = join(bad, 'x.json');
    expect(invalid.stderr.trim().split('\n')).to.deep.equal([
      `${file}: attributeReleasePolicy.principalIdAttribute: not supported by tessera: the user in every answer is the principal id (service "X", id 9)`,
      `${file}: logutType: unknown key; did you mean logoutType? (service "X", id 9)`,
      `2 problem(s) in 1 file(s) of ${bad}; nothing was imported.`,
    ]);
  });

  it("validate: Apereo's OAuth 2.0 clients as real files write them; the password grant beside others said, alone refused saying why", () => {
    const corpus = fileURLToPath(new URL('../fixtures/apereo-services/', import.meta.url));
    const client = join(corpus, 'houxuexianhan__cas/oauthApp1-101.json');
    const jasig = join(corpus, 'RCOSDP__RDM-cas-overlay/oauth2-osf-localhost.json');
    const valid = runTessera(['services', 'validate', client, jasig]);
    expect(valid.code, valid.stderr).to.equal(0);
    expect(valid.stdout).to.include(`${client}: valid, "oauthApp1-101" as id 101`).and.include('2 service file(s) valid.');
    // The password grant beside grants tessera serves: valid, said; refused with --strict.
    const beside = join(corpus, 'lyx990593218__cas-overlay-template/OAuth2-100003.json');
    const warned = runTessera(['services', 'validate', beside]);
    expect(warned.code, warned.stderr).to.equal(0);
    expect(warned.stderr).to.include(`${beside}: warning: service "OAuth2-100003" (id 100003): its supportedGrantTypes hold password`);
    expect(runTessera(['services', 'validate', '--strict', beside]).code).to.equal(1);
    // The password grant alone: nothing tessera serves, refused saying why.
    const password = join(corpus, 'wpillacam__cas_apereo/oidc-clientcredentials--services--Sample-1.json');
    const refused = runTessera(['services', 'validate', password]);
    expect(refused.code).to.equal(1);
    expect(refused.stderr).to.include(
      `${password}: supportedGrantTypes: holds "password", not supported by tessera: the password grant hands the user's password to the client, and tessera's users type it only in its login form: use authorization_code (service "Sample-1", id 1)`,
    );
  });

  it('validate and import: a service whose host is not pinned is valid, with a warning naming it and saying how to pin it', () => {
    const directory = folder({
      'open.json': JSON.stringify({ '@class': CAS, id: 3, name: 'Intranet', serviceId: '^https://intranet\\.example\\.org.*' }),
      'pinned.json': JSON.stringify({ '@class': CAS, id: 4, name: 'Wiki', serviceId: '^https://wiki\\.example\\.org/.*' }),
    });
    const warning = `${join(directory, 'open.json')}: warning: service "Intranet" (id 3): its host is not pinned: serviceId ^https://intranet\\.example\\.org.* does not end the host, so it also matches URLs of other hosts (<host>.evil.example, <host>@evil.example); end the host with /, :port, ? or $`;
    const validated = runTessera(['services', 'validate', directory]);
    expect(validated.code, validated.stderr).to.equal(0);
    expect(validated.stdout).to.include('2 service file(s) valid.');
    expect(validated.stderr.trim().split('\n')).to.deep.equal([warning]);
    const imported = runTessera(['services', 'import', directory, '--config', config()]);
    expect(imported.code, imported.stderr).to.equal(0);
    expect(imported.stdout).to.include(`${join(directory, 'open.json')}: valid, would load "Intranet" as id 3`);
    expect(imported.stderr.trim().split('\n')).to.deep.equal([warning]);
  });

  it('bad usage exits 2; an unreadable folder is a problem naming it, exit 1', () => {
    expect(runTessera(['services', 'remove']).code).to.equal(2);
    expect(runTessera(['services', 'import']).code).to.equal(2);
    const folder = join(tmpdir(), 'no-such-tessera-folder');
    const missing = runTessera(['services', 'import', folder, '--config', config()]);
    expect(missing.code).to.equal(1);
    expect(missing.stderr).to.include(`${folder}: cannot read it (ENOENT)`);
  });
});
