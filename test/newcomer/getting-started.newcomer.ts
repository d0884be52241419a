import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@tessera/testkit';
import { APACHE_PROBES } from '../clients/apache.js';
import { skipUnlessInstalled, type ChildServer } from '../clients/harness.js';
import { guardOutput, rememberAnswer, rememberSecret } from '../support/log-canary.js';
import { withoutRunDetails } from '../docs/examples.js';
import { freePorts, logInThroughApache, onOurPorts, onPagePorts, outputShownAfter, pageBlock, startApacheOnTheSite, type Ports } from '../docs/getting-started.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The hash the page's tessera.yaml shows, which a reader replaces by the one step 2 printed. */
const PAGE_HASH = /\$argon2id\$[^\s]+/;

/**
 * The newcomer check (`pnpm test:newcomer`, run by .ci/run after pnpm test): docs/getting-started.md
 * followed from a fresh clone of this repository by the page's own commands, `npx --yes pnpm@… install`,
 * `start` and `-s tessera …` among them, to a demo, then an HTTPS server with alice, one service and
 * Apache mod_auth_cas letting her in. What it changes, and why:
 * - the ports: free ones for 8443 and 8081, and for the demo's 8080 the `TESSERA_SERVER__PORT`
 *   variable the README names;
 * - Apache's Debian paths (step 5 installs and enables it system-wide): a folder of the clone's;
 * - the build: the clone gets this checkout's compiled output (dist/, dist-test/, with their
 *   .tsbuildinfo) before step 1, so the page's `tsc -b` (in `start`) checks and updates it instead of
 *   compiling everything again; pnpm test has just built it from scratch, and CI's time is counted.
 */
describe('newcomer: a fresh clone follows docs/getting-started.md by its own commands to a CAS client logging alice in', function () {
  this.timeout(300_000);
  let folder = '';
  let clone = '';
  let ports: Ports;
  let tessera: Foreground | undefined;
  let apache: ChildServer | undefined;

  before(async function () {
    skipUnlessInstalled(this, 'the newcomer check (mod_auth_cas, curl, openssl, git)', [...APACHE_PROBES, ['curl', '--version'], ['openssl', 'version'], ['git', '--version']]);
    ports = await freePorts();
    rememberSecret('Mellon', 'the demo password');
    rememberSecret('alice-example-password', "alice's password on the page");
    folder = mkdtempSync(join(tmpdir(), 'tessera-newcomer-'));
    // Apache, started as root, serves as www-data from the clone: the folders on the way must let it through.
    chmodSync(folder, 0o755);
    clone = join(folder, 'tessera');
    const cloned = spawnSync('git', ['clone', '--quiet', ROOT, clone], { encoding: 'utf8' });
    expect(cloned.status, cloned.stderr).to.equal(0);
    copyBuiltOutput(ROOT, clone);
  });
  after(async () => {
    await apache?.stop();
    await tessera?.stop('SIGINT');
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('step 1: install, build and start, as the page says, serve the demo: casuser logs in over REST', async () => {
    const port = await freePort();
    const demo = await runInForeground(pageBlock('sh', 0).code, clone, { TESSERA_SERVER__PORT: String(port) }, 'the demo');
    try {
      expect(demo.url).to.equal(`http://127.0.0.1:${port}/cas`);
      expect(demo.output()).to.include('DEMO CREDENTIALS ARE ON');
      const login = await fetch(`${demo.url}/v1/tickets`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/plain' }, body: 'username=casuser&password=Mellon' });
      const tgt = await login.text();
      rememberAnswer(tgt, undefined);
      expect(login.status).to.equal(201);
      expect(tgt).to.match(/^TGT-/);
    } finally {
      // Ctrl-C, as the page says: the terminal signals the whole foreground group, and tessera stops gracefully.
      await demo.stop('SIGINT');
      expect(demo.output(), 'what Ctrl-C printed').to.include('"msg":"tessera stopped"');
    }
  });

  it("step 2: the page's commands make a certificate and alice's hash", () => {
    shell(pageBlock('sh', 1).code);
    expect(existsSync(join(clone, 'tls/tessera.pem')) && existsSync(join(clone, 'tls/tessera.key'))).to.equal(true);
    const hash = shell(pageBlock('sh', 2).code).trim();
    expect(hash).to.match(/^\$argon2id\$v=19\$/);
    // Step 3: "Save this as tessera.yaml, with your hash in place of the example's."
    const config = onOurPorts(pageBlock('yaml').code, ports);
    expect(config).to.match(PAGE_HASH);
    writeFileSync(join(clone, 'tessera.yaml'), config.replace(PAGE_HASH, () => hash));
  });

  it('step 4: the service file, config check printing what the page shows, and the HTTPS server started as the page says', async () => {
    writeFileSync(join(clone, 'services/app.json'), onOurPorts(pageBlock('json').code, ports));
    const check = pageBlock('sh', 3);
    expect(withoutRunDetails(onPagePorts(shell(check.code), ports))).to.equal(withoutRunDetails(outputShownAfter(check)));
    tessera = await runInForeground(pageBlock('sh', 4).code, clone, {}, 'the HTTPS server');
    expect(tessera.url).to.equal(`https://127.0.0.1:${ports.tessera}/cas`);
    expect(tessera.output()).to.not.include('DEMO CREDENTIALS');
  });

  it('step 5: Apache on the site configuration sends a visitor to the login page, and lets alice in after it', async () => {
    const started = await startApacheOnTheSite(clone, ports);
    apache = started.apache;
    await logInThroughApache(clone, ports, started.page, () => tessera!.output());
  });

  it('leaves no secret it wrote where git would take it: the key and the login key file are ignored', () => {
    const status = spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: clone, encoding: 'utf8' });
    expect(status.status, status.stderr).to.equal(0);
    const untracked = status.stdout.split('\n').filter((line) => line.startsWith('?? ')).map((line) => line.slice(3));
    expect(untracked.filter((path) => /\.key$|key\.json$/.test(path)), 'secrets git would add').to.deep.equal([]);
    expect(untracked, 'what the page asks the reader to write').to.include.members(['tessera.yaml', 'services/app.json']);
  });

  /** Runs commands of the page in the clone, as a reader's shell does; what they printed. */
  function shell(code: string): string {
    const result = spawnSync('bash', ['-euo', 'pipefail', '-c', code], { cwd: clone, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' }, timeout: 120_000 });
    rememberAnswer(result.stdout, undefined);
    expect(result.status, `${code}\n${result.stdout}${result.stderr}`).to.equal(0);
    return result.stdout;
  }
});

/** A command of the page that serves until Ctrl-C, run in a process group of its own, as a terminal runs it. */
interface Foreground {
  readonly url: string;
  output(): string;
  /** Signals its whole group (the pnpm, tsc and node processes) and resolves with the shell's exit code. */
  stop(signal: NodeJS.Signals): Promise<number | null>;
}

/** Starts `code` in bash and resolves once tessera's ready line names its URL (the build before it included). */
function runInForeground(code: string, cwd: string, env: Readonly<Record<string, string>>, what: string): Promise<Foreground> {
  const child: ChildProcess = spawn('bash', ['-euo', 'pipefail', '-c', code], { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '', ...env } });
  let output = '';
  guardOutput(`output of ${what} in the newcomer's clone`, () => output);
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (status) => resolve(status)));
  let running = true;
  void exited.then(() => (running = false));
  const stop = async (signal: NodeJS.Signals) => {
    if (running) {
      process.kill(-child.pid!, signal);
      const killer = setTimeout(() => running && process.kill(-child.pid!, 'SIGKILL'), 10_000);
      const status = await exited;
      clearTimeout(killer);
      return status;
    }
    return exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => void stop('SIGKILL').then(() => reject(new Error(`${what}: no ready line within 240 s:\n${output}`))), 240_000);
    const onData = () => {
      const ready = /tessera ready at (https?:\/\/[^"\s]+)/.exec(output);
      if (!ready) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve({ url: ready[1]!, output: () => output, stop });
    };
    child.stdout!.on('data', onData);
    void exited.then((status) => {
      clearTimeout(timer);
      reject(new Error(`${what} ended with ${status} before its ready line:\n${output}`));
    });
  });
}

/** This checkout's compiled output, copied into the clone at the same places, when it has been built. */
function copyBuiltOutput(from: string, to: string): void {
  const outputs = (folder: string): string[] =>
    readdirSync(join(from, folder), { withFileTypes: true }).flatMap((entry) => {
      if (!entry.isDirectory() || entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
      const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
      return entry.name === 'dist' || entry.name === 'dist-test' ? [path] : outputs(path);
    });
  for (const path of ['packages', 'test', 'bench'].filter((top) => existsSync(join(from, top))).flatMap(outputs)) {
    cpSync(join(from, path), join(to, path), { recursive: true, preserveTimestamps: true });
  }
}
