import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@tessera/testkit';
import { formOf, headingOf } from '../support/browser.js';
import { startBuilt, type Built } from '../support/built-server.js';
import { APACHE_PROBES, MODULES } from '../clients/apache.js';
import { makeTempDir, runProgram, skipUnlessInstalled, startChildServer, type ChildServer, type TempDir } from '../clients/harness.js';
import { examplesOf } from './examples.js';
import { readPage } from './markdown.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PAGE = 'docs/getting-started.md';
const examples = examplesOf(readPage(ROOT, PAGE)).examples;
const TESSERA = join(ROOT, 'packages/cli-server/bin/tessera.js');

/** The page's `index`th block in `language`. */
function block(language: string, index = 0): string {
  const found = examples.filter((example) => example.language === language)[index];
  if (!found) throw new Error(`${PAGE} has no ${language} block number ${index + 1}`);
  return found.code;
}

// docs/getting-started.md, followed as a newcomer follows it: its certificate command, its tessera.yaml
// and service file, the server started on them, and Apache mod_auth_cas on its site configuration;
// then a login through the page it protects. Only the ports (free ones for 8443 and 8081) and the
// Debian paths of Apache's files (a folder of the test's own) are replaced.
describe('docs/getting-started.md: from a checkout to a CAS client logging a user in', function () {
  this.timeout(90_000);
  let dir: TempDir | undefined;
  let tessera: Built | undefined;
  let apache: ChildServer | undefined;
  let ports: { readonly tessera: number; readonly apache: number };

  before(async function () {
    skipUnlessInstalled(this, 'mod_auth_cas with curl and openssl', [...APACHE_PROBES, ['curl', '--version'], ['openssl', 'version']]);
    const tesseraPort = await freePort();
    let apachePort = await freePort();
    while (apachePort === tesseraPort) apachePort = await freePort();
    ports = { tessera: tesseraPort, apache: apachePort };
    dir = await makeTempDir('getting-started');
    // Apache, started as root, serves as www-data: it reads the certificate and the site, and writes its cache.
    chmodSync(dir.path, 0o755);
  });
  after(async () => {
    await apache?.stop();
    await tessera?.stop();
    await dir?.remove();
  });

  /** The page's text with the test's ports for the page's. */
  const onOurPorts = (text: string) => text.replaceAll('8443', String(ports.tessera)).replaceAll('8081', String(ports.apache));

  it('step 2 to 4: the certificate, the configuration and the service start a server', async () => {
    const made = spawnSync('bash', ['-euo', 'pipefail', '-c', block('sh', 1)], { cwd: dir!.path, encoding: 'utf8' });
    expect(made.status, made.stderr).to.equal(0);
    chmodSync(join(dir!.path, 'tls'), 0o755);
    writeFileSync(join(dir!.path, 'tessera.yaml'), onOurPorts(block('yaml')));
    writeFileSync(join(dir!.path, 'services/app.json'), onOurPorts(block('json')));
    const checked = spawnSync(process.execPath, [TESSERA, 'config', 'check', '--config', 'tessera.yaml'], { cwd: dir!.path, encoding: 'utf8' });
    expect(checked.stdout, checked.stderr).to.include('tessera.yaml: configuration OK');
    tessera = await startBuilt(['--config', 'tessera.yaml'], {}, dir!.path);
    expect(tessera.url).to.equal(`https://127.0.0.1:${ports.tessera}/cas`);
  });

  it('step 5: Apache on its site configuration sends a visitor to the login page, and lets alice in after it', async () => {
    const page = /echo '([^']*)' \| sudo tee \/var\/www\/app-site\/app\/index\.html/.exec(block('sh', 5))?.[1];
    expect(page, 'the page step 5 writes').to.be.a('string');
    mkdirSync(join(dir!.path, 'www/app'), { recursive: true });
    writeFileSync(join(dir!.path, 'www/app/index.html'), `${page}\n`);
    mkdirSync(join(dir!.path, 'cache'), { mode: 0o777 });
    chmodSync(join(dir!.path, 'cache'), 0o777);
    const site = onOurPorts(block('apache'))
      .replaceAll('/var/www/app-site', join(dir!.path, 'www'))
      .replaceAll('/etc/apache2/tessera-ca.pem', join(dir!.path, 'tls/tessera.pem'))
      .replaceAll('/var/cache/apache2/mod_auth_cas/', `${join(dir!.path, 'cache')}/`);
    // What Debian's apache2.conf and a2enmod would add: a root of its own, the modules, the error log.
    const asRoot = process.getuid?.() === 0;
    const config = [
      `ServerRoot ${dir!.path}`,
      `DefaultRuntimeDir ${dir!.path}`,
      `PidFile ${dir!.path}/httpd.pid`,
      ...(asRoot ? ['User www-data', 'Group www-data'] : []),
      ...['mpm_event', 'authn_core', 'authz_core', 'authz_user', 'dir', 'auth_cas'].map((name) => `LoadModule ${name}_module ${MODULES}/mod_${name}.so`),
      `ErrorLog ${dir!.path}/error.log`,
      'LogLevel warn auth_cas:debug',
      site,
    ].join('\n');
    writeFileSync(join(dir!.path, 'httpd.conf'), config);
    apache = await startChildServer('/usr/sbin/apache2', ['-f', join(dir!.path, 'httpd.conf'), '-DFOREGROUND'], { port: ports.apache, cwd: dir!.path, ownProcessGroup: true });
    const why = () => `\nmod_auth_cas log:\n${readFileSync(join(dir!.path, 'error.log'), 'utf8')}\ntessera log:\n${tessera!.stdout()}`;

    const app = `http://localhost:${ports.apache}/app/`;
    const form = await curl(app);
    expect(form.status, why()).to.equal(200);
    expect(form.finalUrl).to.equal(`https://localhost:${ports.tessera}/cas/login?service=${encodeURIComponent(app).toLowerCase()}`);
    expect(headingOf(form.body)).to.equal('Log in');

    const { action, hidden } = formOf(form.body);
    const landed = await curl(new URL(action, form.finalUrl).toString(), { ...hidden, username: 'alice', password: 'alice-example-password' });
    expect(landed.status, why()).to.equal(200);
    expect(landed.finalUrl).to.equal(app);
    expect(landed.body).to.equal(`${page}\n`);
    expect(readFileSync(join(dir!.path, 'error.log'), 'utf8')).to.match(/MOD_AUTH_CAS: attribute memberOf=staff/);

    // Again: mod_auth_cas's own session, no login asked for.
    const again = await curl(app);
    expect(again.finalUrl, why()).to.equal(app);
  });

  /** curl with one cookie jar, following redirects, trusting the page's certificate; `data` makes it a form POST. */
  async function curl(url: string, data: Readonly<Record<string, string>> = {}): Promise<{ status: number; finalUrl: string; body: string }> {
    const jar = join(dir!.path, 'cookies.txt');
    const form = Object.entries(data).flatMap(([name, value]) => ['--data-urlencode', `${name}=${value}`]);
    const ca = join(dir!.path, 'tls/tessera.pem');
    const { code, stdout, stderr } = await runProgram('curl', ['-sS', '-L', '--max-redirs', '10', '-c', jar, '-b', jar, '--cacert', ca, ...form, '-w', '\n%{http_code} %{url_effective}', url]);
    if (code !== 0) throw new Error(`curl ${url}: exit ${code}: ${stderr}`);
    const cut = stdout.lastIndexOf('\n');
    const [status, finalUrl] = stdout.slice(cut + 1).split(' ') as [string, string];
    return { status: Number(status), finalUrl, body: stdout.slice(0, cut) };
  }
});
