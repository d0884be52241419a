import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

// issue 10 §5 — tessera services list | import DIR
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
    expect(stderr).to.include(`${join(directory, 'd.json')}: id: 7 is already used by ${join(directory, 'a.json')}`);
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

  it('bad usage and an unreadable folder exit 2', () => {
    expect(runTessera(['services', 'remove']).code).to.equal(2);
    expect(runTessera(['services', 'import']).code).to.equal(2);
    const missing = runTessera(['services', 'import', join(tmpdir(), 'no-such-tessera-folder'), '--config', config()]);
    expect(missing.code).to.equal(2);
    expect(missing.stderr).to.include('cannot read');
  });
});
