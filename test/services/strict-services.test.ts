import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTessera } from '../support/built-server.js';
import { startTessera } from '../support/tessera.js';
import { configFile, postService, REGISTRATION } from './support.js';

const OAUTH = 'org.apereo.cas.support.oauth.services.OAuthRegisteredService';
/** A client as Apereo's own examples write one, with a secret of six characters (theirs is `secret`). */
const SHORT_SECRET_CLIENT = { '@class': OAUTH, id: 11, name: 'Wiki', serviceId: '^https://wiki\\.example\\.org/callback$', clientId: 'wiki', clientSecret: 'k9Xq2z' };
const WHY = 'its clientSecret has 6 character(s), fewer than 16: one this short can be guessed by whoever tries the token endpoint; give the client a random clientSecret of at least 16 characters (openssl rand -base64 24)';

function folder(files: Record<string, unknown>): string {
  const directory = mkdtempSync(join(tmpdir(), 'tessera-strict-'));
  for (const [name, json] of Object.entries(files)) writeFileSync(join(directory, name), JSON.stringify(json));
  return directory;
}

// docs/services.md (Strict mode); docs/security.md (Production checklist)
describe('strict services: what loads with a warning is refused where warnings are refusals', function () {
  this.timeout(30_000);

  it('services validate: a short client secret is valid with a warning naming the service and why; with --strict it is a problem, exit 1', () => {
    const directory = folder({ 'wiki.json': SHORT_SECRET_CLIENT });
    const file = join(directory, 'wiki.json');
    const lenient = runTessera(['services', 'validate', directory]);
    expect(lenient.code, lenient.stderr).to.equal(0);
    expect(lenient.stdout).to.include(`${file}: valid, "Wiki" as id 11`);
    expect(lenient.stderr.trim().split('\n')).to.deep.equal([`${file}: warning: service "Wiki" (id 11): ${WHY}`]);

    const strict = runTessera(['services', 'validate', '--strict', directory]);
    expect(strict.code).to.equal(1);
    expect(strict.stdout).to.equal('');
    expect(strict.stderr.trim().split('\n')).to.deep.equal([`${file}: clientSecret: ${WHY} (refused in strict mode) (service "Wiki", id 11)`, `1 problem(s) in 1 file(s) of ${directory}; nothing was imported.`]);

    const long = runTessera(['services', 'validate', '--strict', folder({ 'wiki.json': { ...SHORT_SECRET_CLIENT, clientSecret: 'x'.repeat(16) } })]);
    expect(long.code, long.stderr).to.equal(0);
    expect(long.stderr).to.equal('');
  });

  it('services import with strictServices: the file is refused, nothing imported; without it, imported with the warning', () => {
    const directory = folder({ 'wiki.json': SHORT_SECRET_CLIENT });
    const strict = runTessera(['services', 'import', directory, '--config', configFile({ strictServices: true })]);
    expect(strict.code).to.equal(1);
    expect(strict.stderr).to.include(`${join(directory, 'wiki.json')}: clientSecret: ${WHY} (refused in strict mode)`);
    const lenient = runTessera(['services', 'import', directory, '--config', configFile({})]);
    expect(lenient.code, lenient.stderr).to.equal(0);
    expect(lenient.stderr).to.include(`warning: service "Wiki" (id 11): ${WHY}`);
  });

  it('start and config check with strictServices: a configured or directory service with a warning stops the start, exit 2, naming the setting and the key', () => {
    const directory = folder({ 'wiki.json': SHORT_SECRET_CLIENT });
    const configured = runTessera(['config', 'check', '--config', configFile({ strictServices: true, services: [{ ...SHORT_SECRET_CLIENT, id: 12, name: 'Configured' }] })]);
    expect(configured.code).to.equal(2);
    expect(configured.stderr).to.include(`services[0].clientSecret: ${WHY} (refused in strict mode)`);
    const started = runTessera(['--config', configFile({ strictServices: true, servicesDirectory: directory, server: { port: 0 } })]);
    expect(started.code).to.equal(2);
    expect(started.stderr).to.include(`servicesDirectory: ${join(directory, 'wiki.json')}: clientSecret: ${WHY} (refused in strict mode)`);
    // A host not pinned is a warning too, and so a refusal.
    const unpinned = runTessera(['config', 'check', '--config', configFile({ strictServices: true, services: [{ '@class': 'org.apereo.cas.services.CasRegisteredService', id: 3, name: 'Intranet', serviceId: '^https://intranet\\.example\\.org.*' }] })]);
    expect(unpinned.code).to.equal(2);
    expect(unpinned.stderr).to.include('services[0].serviceId: its host is not pinned');
  });

  it('POST /v1/services with strictServices: 400 naming the key; the same client with a long secret is saved; without it, saved with the short one', async () => {
    const registration = { ...REGISTRATION, acceptedTypes: [OAUTH] };
    const strict = await startTessera({ modules: ['rest', 'services'], registration, strictServices: true });
    try {
      const refused = await postService(strict.url, SHORT_SECRET_CLIENT);
      expect(refused.status).to.equal(400);
      expect(await refused.text()).to.include('clientSecret').and.include('fewer than 16');
      expect((await postService(strict.url, { ...SHORT_SECRET_CLIENT, clientSecret: 'x'.repeat(16) })).status).to.equal(200);
    } finally {
      await strict.close();
    }
    const lenient = await startTessera({ modules: ['rest', 'services'], registration });
    try {
      expect((await postService(lenient.url, SHORT_SECRET_CLIENT)).status).to.equal(200);
    } finally {
      await lenient.close();
    }
  });
});
