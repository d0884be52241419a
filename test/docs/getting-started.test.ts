import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBuilt, type Built } from '../support/built-server.js';
import { APACHE_PROBES } from '../clients/apache.js';
import { makeTempDir, skipUnlessInstalled, type ChildServer, type TempDir } from '../clients/harness.js';
import { freePorts, logInThroughApache, onOurPorts, pageBlock, startApacheOnTheSite, type Ports } from './getting-started.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TESSERA = join(ROOT, 'packages/cli-server/bin/tessera.js');

// docs/getting-started.md, followed as a newcomer follows it, on this checkout's build: its certificate
// command, its tessera.yaml and service file, the server started on them, and Apache mod_auth_cas on
// its site configuration; then a login through the page it protects. The newcomer check of .ci/run
// (test/newcomer/) follows it again from a fresh clone with the page's own pnpm commands.
describe('docs/getting-started.md: from a checkout to a CAS client logging a user in', function () {
  this.timeout(90_000);
  let dir: TempDir | undefined;
  let tessera: Built | undefined;
  let apache: ChildServer | undefined;
  let ports: Ports;

  before(async function () {
    skipUnlessInstalled(this, 'mod_auth_cas with curl and openssl', [...APACHE_PROBES, ['curl', '--version'], ['openssl', 'version']]);
    ports = await freePorts();
    dir = await makeTempDir('getting-started');
  });
  after(async () => {
    await apache?.stop();
    await tessera?.stop();
    await dir?.remove();
  });

  it('step 2 to 4: the certificate, the configuration and the service start a server', async () => {
    const made = spawnSync('bash', ['-euo', 'pipefail', '-c', pageBlock('sh', 1).code], { cwd: dir!.path, encoding: 'utf8' });
    expect(made.status, made.stderr).to.equal(0);
    writeFileSync(join(dir!.path, 'tessera.yaml'), onOurPorts(pageBlock('yaml').code, ports));
    writeFileSync(join(dir!.path, 'services/app.json'), onOurPorts(pageBlock('json').code, ports));
    const checked = spawnSync(process.execPath, [TESSERA, 'config', 'check', '--config', 'tessera.yaml'], { cwd: dir!.path, encoding: 'utf8' });
    expect(checked.stdout, checked.stderr).to.include('tessera.yaml: configuration OK');
    tessera = await startBuilt(['--config', 'tessera.yaml'], {}, dir!.path);
    expect(tessera.url).to.equal(`https://127.0.0.1:${ports.tessera}/cas`);
  });

  it('step 5: Apache on its site configuration sends a visitor to the login page, and lets alice in after it', async () => {
    const started = await startApacheOnTheSite(dir!.path, ports);
    apache = started.apache;
    await logInThroughApache(dir!.path, ports, started.page, () => tessera!.stdout());
  });
});
