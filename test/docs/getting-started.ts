import { expect } from 'chai';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@tessera/testkit';
import { formOf, headingOf } from '../support/browser.js';
import { MODULES } from '../clients/apache.js';
import { runProgram, startChildServer, type ChildServer } from '../clients/harness.js';
import { examplesOf, type Example } from './examples.js';
import { readPage } from './markdown.js';

// docs/getting-started.md as its two tests follow it: test/docs/getting-started.test.ts in pnpm test
// (the checkout's built CLI), and the newcomer check of .ci/run (test/newcomer/), a fresh clone
// running the page's own commands. Only the ports (free ones for 8443 and 8081) and the Debian
// paths of Apache's files (a folder of the test's own) are replaced.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const PAGE = 'docs/getting-started.md';
const examples = examplesOf(readPage(ROOT, PAGE)).examples;

/** The page's `index`th block in `language`. */
export function pageBlock(language: string, index = 0): Example {
  const found = examples.filter((example) => example.language === language)[index];
  if (!found) throw new Error(`${PAGE} has no ${language} block number ${index + 1}`);
  return found;
}

/** The output block the page shows right after `block`. */
export function outputShownAfter(block: Example): string {
  const next = examples[examples.indexOf(block) + 1];
  if (next?.kind !== 'output') throw new Error(`${PAGE}:${block.line} has no output block after it`);
  return next.code;
}

export interface Ports {
  readonly tessera: number;
  readonly apache: number;
}

export async function freePorts(): Promise<Ports> {
  const tessera = await freePort();
  let apache = await freePort();
  while (apache === tessera) apache = await freePort();
  return { tessera, apache };
}

/** The page's text with the test's ports for the page's. */
export function onOurPorts(text: string, ports: Ports): string {
  return text.replaceAll('8443', String(ports.tessera)).replaceAll('8081', String(ports.apache));
}

/** The text with the page's ports for the test's: to compare what a command printed with what the page shows. */
export function onPagePorts(text: string, ports: Ports): string {
  return text.replaceAll(String(ports.tessera), '8443').replaceAll(String(ports.apache), '8081');
}

/**
 * Step 5: Apache with mod_auth_cas on the page's site configuration, in `dir` (where step 2 made
 * tls/tessera.pem), serving the page step 5 writes. What Debian's apache2.conf and a2enmod would
 * add is added: a root of its own, the modules, the error log.
 */
export async function startApacheOnTheSite(dir: string, ports: Ports): Promise<{ apache: ChildServer; page: string }> {
  // Apache, started as root, serves as www-data: it reads the certificate and the site, and writes its cache.
  chmodSync(dir, 0o755);
  chmodSync(join(dir, 'tls'), 0o755);
  const page = /echo '([^']*)' \| sudo tee \/var\/www\/app-site\/app\/index\.html/.exec(pageBlock('sh', 5).code)?.[1];
  expect(page, 'the page step 5 writes').to.be.a('string');
  mkdirSync(join(dir, 'www/app'), { recursive: true });
  writeFileSync(join(dir, 'www/app/index.html'), `${page}\n`);
  mkdirSync(join(dir, 'cache'), { mode: 0o777 });
  chmodSync(join(dir, 'cache'), 0o777);
  const site = onOurPorts(pageBlock('apache').code, ports)
    .replaceAll('/var/www/app-site', join(dir, 'www'))
    .replaceAll('/etc/apache2/tessera-ca.pem', join(dir, 'tls/tessera.pem'))
    .replaceAll('/var/cache/apache2/mod_auth_cas/', `${join(dir, 'cache')}/`);
  const asRoot = process.getuid?.() === 0;
  const config = [
    `ServerRoot ${dir}`,
    `DefaultRuntimeDir ${dir}`,
    `PidFile ${dir}/httpd.pid`,
    ...(asRoot ? ['User www-data', 'Group www-data'] : []),
    ...['mpm_event', 'authn_core', 'authz_core', 'authz_user', 'dir', 'auth_cas'].map((name) => `LoadModule ${name}_module ${MODULES}/mod_${name}.so`),
    `ErrorLog ${dir}/error.log`,
    'LogLevel warn auth_cas:debug',
    site,
  ].join('\n');
  writeFileSync(join(dir, 'httpd.conf'), config);
  const apache = await startChildServer('/usr/sbin/apache2', ['-f', join(dir, 'httpd.conf'), '-DFOREGROUND'], { port: ports.apache, cwd: dir, ownProcessGroup: true });
  return { apache, page: page! };
}

/**
 * A visitor of the protected page is sent to tessera's login page, logs in as alice, and lands on
 * the page with her attributes released to mod_auth_cas; the next visit needs no login.
 */
export async function logInThroughApache(dir: string, ports: Ports, page: string, tesseraLog: () => string): Promise<void> {
  const why = () => `\nmod_auth_cas log:\n${readFileSync(join(dir, 'error.log'), 'utf8')}\ntessera log:\n${tesseraLog()}`;
  const app = `http://localhost:${ports.apache}/app/`;
  const form = await curl(dir, app);
  expect(form.status, why()).to.equal(200);
  expect(form.finalUrl).to.equal(`https://localhost:${ports.tessera}/cas/login?service=${encodeURIComponent(app).toLowerCase()}`);
  expect(headingOf(form.body)).to.equal('Log in');

  const { action, hidden } = formOf(form.body);
  const landed = await curl(dir, new URL(action, form.finalUrl).toString(), { ...hidden, username: 'alice', password: 'alice-example-password' });
  expect(landed.status, why()).to.equal(200);
  expect(landed.finalUrl).to.equal(app);
  expect(landed.body).to.equal(`${page}\n`);
  expect(readFileSync(join(dir, 'error.log'), 'utf8')).to.match(/MOD_AUTH_CAS: attribute memberOf=staff/);

  // Again: mod_auth_cas's own session, no login asked for.
  const again = await curl(dir, app);
  expect(again.finalUrl, why()).to.equal(app);
}

/** curl with one cookie jar, following redirects, trusting the page's certificate; `data` makes it a form POST. */
async function curl(dir: string, url: string, data: Readonly<Record<string, string>> = {}): Promise<{ status: number; finalUrl: string; body: string }> {
  const jar = join(dir, 'cookies.txt');
  const form = Object.entries(data).flatMap(([name, value]) => ['--data-urlencode', `${name}=${value}`]);
  const ca = join(dir, 'tls/tessera.pem');
  const { code, stdout, stderr } = await runProgram('curl', ['-sS', '-L', '--max-redirs', '10', '-c', jar, '-b', jar, '--cacert', ca, ...form, '-w', '\n%{http_code} %{url_effective}', url]);
  if (code !== 0) throw new Error(`curl ${url}: exit ${code}: ${stderr}`);
  const cut = stdout.lastIndexOf('\n');
  const [status, finalUrl] = stdout.slice(cut + 1).split(' ') as [string, string];
  return { status: Number(status), finalUrl, body: stdout.slice(0, cut) };
}
