import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { freePort } from '@tessera/testkit';
import { guardOutput, rememberAnswer, rememberConfig, rememberSecret } from '../support/log-canary.js';
import { startBuilt, type Built } from '../support/built-server.js';
import { examplesOf, withoutRunDetails, type Example } from './examples.js';
import { documentationPages, readPage } from './markdown.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TESSERA = join(ROOT, 'packages/cli-server/bin/tessera.js');
/** The address the docs show for a local server; each session's own server answers in its place. */
const DOCS_ORIGIN = 'http://127.0.0.1:8080';

const pages = documentationPages(ROOT).map((path) => readPage(ROOT, path));
const examples = pages.flatMap((page) => examplesOf(page).examples);

/** The code of the `index`th example of `kind` on `page`: a session's files come from the docs too. */
function exampleCode(page: string, kind: Example['kind'], index = 0): string {
  const found = examples.filter((example) => example.page === page && example.kind === kind)[index];
  if (!found) throw new Error(`${page} has no ${kind} example number ${index + 1}`);
  return found.code;
}

/** The whole configuration the docs mark as started by `session` (`<!-- example: complete config: SESSION -->`). */
function sessionConfig(session: string): string {
  const found = examples.filter((example) => example.kind === 'complete config' && example.note === session);
  if (found.length !== 1) throw new Error(`the docs have ${found.length} configurations marked "complete config: ${session}", not one`);
  return found[0]!.code;
}

/**
 * A session: the `run` blocks of one name, run in order by one shell, as a reader would type them,
 * in a fresh folder holding `files`, against `server` when it has one.
 */
interface Session {
  /**
   * The server the commands talk to, in the docs' place (127.0.0.1:8080), started by the built CLI
   * on a free port: the demo (no configuration), or a configuration of the docs.
   */
  readonly server?: 'demo' | { readonly config: () => string };
  readonly files?: () => Readonly<Record<string, string>>;
  /**
   * The session's folder is a checkout: the commands run where `packages/` is (a link to this one's),
   * as docs that say `node packages/cli-server/dist/main.js` expect.
   */
  readonly inCheckout?: boolean;
  /** Ports the commands and files name that the test replaces by free ones (the commands start servers on them). */
  readonly ports?: readonly number[];
  /** Absolute paths of a production machine the test replaces by the session's folder (`/etc/tessera/` → `./`). */
  readonly paths?: readonly string[];
  /** Programs the blocks run beyond bash and curl; without one the session is skipped, saying which. */
  readonly needs?: readonly string[];
  /** Checks of what the blocks printed, beyond the output blocks the docs show after them; `folder` holds what they wrote. */
  readonly check?: (printed: readonly string[], folder: string) => void;
}

const SESSIONS: Readonly<Record<string, Session>> = {
  // README.md: log in, a service ticket and its validation, against the demo.
  walkthrough: { server: 'demo' },
  // docs/cli.md: config check on the whole configuration of docs/configuration.md.
  // docs/applications.md: validation twice (the second refused), and SAML 1.1, against the demo.
  applications: {
    server: 'demo',
    check: ([, , , saml]) => {
      expect(saml).to.include('<samlp:StatusCode Value="samlp:Success"/>');
      expect(saml).to.include('<saml:Audience>https://app.example.org/</saml:Audience>');
      expect(saml).to.include('<saml:NameIdentifier>casuser</saml:NameIdentifier>');
      expect(saml).to.include('<saml:Attribute AttributeName="memberOf" AttributeNamespace="http://www.ja-sig.org/products/cas/"><saml:AttributeValue>staff</saml:AttributeValue><saml:AttributeValue>faculty</saml:AttributeValue></saml:Attribute>');
    },
  },
  // docs/cli.md: config check on the whole configuration of docs/configuration.md, services validate
  // and generate-keys on a production machine's paths (the session's folder in their place).
  cli: {
    files: () => ({
      'tessera.yaml': exampleCode('docs/configuration.md', 'complete config'),
      'services/Intranet-3.json': exampleCode('docs/services.md', 'service'),
    }),
    paths: ['/etc/tessera/'],
    check: ([, validated], folder) => {
      expect(validated).to.include('services/Intranet-3.json: valid, "Intranet" as id 3');
      const keys = JSON.parse(readFileSync(join(folder, 'token-keys.json'), 'utf8')) as Record<string, unknown>;
      expect(keys).to.have.all.keys('signingKey', 'encryptionKey');
    },
  },
  // docs/applications.md: the OpenAPI document's servers and paths, against the demo.
  openapi: { server: 'demo', needs: ['jq'] },
  // docs/storage.md: two nodes on one real Redis, started by the page's own commands on its
  // configuration: node A's TGT used at node B, node B's ST validated at node A; a user added in
  // Redis by hand logs in at node B, and no longer once deleted.
  storage: {
    files: () => ({ 'two-nodes.yaml': sessionConfig('storage') }),
    inCheckout: true,
    ports: [6379, 8081, 8082],
    needs: ['redis-server', 'redis-cli'],
    check: ([, tickets], folder) => {
      const [tgt, st] = tickets!.trim().split(' ') as [string, string];
      expect(tgt, 'the TGT is node A\'s').to.match(/^TGT-\d+-[\w-]+-node-a$/);
      expect(st, 'the ST is node B\'s').to.match(/^ST-\d+-[\w-]+-node-b$/);
      for (const node of ['node-a', 'node-b']) {
        const log = readFileSync(join(folder, `${node}.log`), 'utf8');
        expect(log, `${node}.log`).to.match(/"msg":"tessera ready at http:\/\/127\.0\.0\.1:\d+\/cas"/);
        expect(log, `${node}.log holds no ticket id`).to.not.include(tgt).and.not.include(st);
        expect(log, `${node}.log holds no password`).to.not.include('example-password');
      }
    },
  },
  // docs/getting-started.md: a certificate, a hash, and config check on the page's tessera.yaml and service file.
  'getting-started': {
    files: () => ({
      'tessera.yaml': sessionConfig('getting-started'),
      'services/app.json': exampleCode('docs/getting-started.md', 'service'),
    }),
    check: ([, hash]) => expect(hash).to.match(/^\$argon2id\$v=19\$/),
  },
  // docs/modules/login.md: the browser login and single sign-on with curl, against the demo.
  login: { server: 'demo' },
  // docs/modules/otp.md: a secret for alice, and her login refused without a code on the page's configuration.
  otp: {
    server: { config: () => sessionConfig('otp') },
    check: ([secret]) => expect(secret).to.match(/^otpSecret: [A-Z2-7]{32}\notpauth:\/\/totp\/tessera:alice\?issuer=tessera&secret=[A-Z2-7]{32}&algorithm=SHA1&digits=6&period=30\n$/),
  },
  // docs/modules/rest.md: log in, a wrong password, a service ticket, /v1/users and logout, against the demo.
  rest: { server: 'demo' },
  // docs/modules/throttle.md: a lock after three failures, on the page's configuration.
  throttle: { server: { config: () => sessionConfig('throttle') } },
  // docs/modules/tokens.md: a TGT and an ST as JWTs on the page's configuration, a fresh key pair, and
  // one for A256CBC-HS512 written where a production machine keeps it (the session's folder instead).
  tokens: {
    server: { config: () => sessionConfig('tokens') },
    paths: ['/etc/tessera/'],
    check: ([, keys], folder) => {
      const { signingKey, encryptionKey } = JSON.parse(keys!) as { signingKey: string; encryptionKey: string };
      expect(Buffer.byteLength(signingKey)).to.be.at.least(64);
      expect(Buffer.from(encryptionKey, 'base64url')).to.have.length(32);
      const cbc = JSON.parse(readFileSync(join(folder, 'token-keys.json'), 'utf8')) as { encryptionKey: string };
      expect(Buffer.from(cbc.encryptionKey, 'base64url'), 'an A256CBC-HS512 key').to.have.length(64);
    },
  },
  // docs/users.md: a hash of the password given on stdin.
  users: { check: ([hash]) => expect(hash).to.match(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[\w+/]+\$[\w+/]+\n$/) },
  // docs/modules/services.md: both variants of registration on the page's configuration.
  'services-module': {
    server: { config: () => sessionConfig('services-module') },
    check: ([current, earlier]) => {
      expect(JSON.parse(current!)).to.include({ '@class': 'org.apereo.cas.services.CasRegisteredService', name: 'Wiki', evaluationOrder: 10 }).and.to.have.property('id').that.is.a('number');
      expect(earlier).to.match(/^\d+$/);
    },
  },
  // docs/services.md: the service commands on the whole configuration of docs/configuration.md.
  services: {
    files: () => ({
      'tessera.yaml': exampleCode('docs/configuration.md', 'complete config'),
      'cas-services/Intranet-3.json': exampleCode('docs/services.md', 'service'),
      'more/wiki.json': JSON.stringify({ '@class': 'org.apereo.cas.services.CasRegisteredService', id: 7, name: 'Wiki', serviceId: '^https://wiki\\.example\\.org/.*' }),
    }),
    check: ([, validated]) => {
      expect(validated).to.include('cas-services/Intranet-3.json: valid, "Intranet" as id 3');
      expect(validated).to.include('more/wiki.json: valid, "Wiki" as id 7');
      expect(validated).to.include('Nothing was imported: the service registry is in memory');
    },
  },
};

/** What a session replaces in what the docs say: the docs' ports and paths by its own, the docs' address by its server's. */
type Replacements = ReadonlyArray<readonly [string, string]>;

/** What a reader types, as this checkout runs it: the built tessera command, and the session's own ports, paths and server. */
function asRun(code: string, replacements: Replacements): string {
  return replacements.reduce((text, [from, to]) => text.replaceAll(from, to), code.replaceAll('npx --yes pnpm@10.34.8 -s tessera', `node ${TESSERA}`));
}

/**
 * Runs the blocks in one bash, `set -euo pipefail`, each block's stdout into a file of its own (a
 * `{ …; }` group runs in the same shell, so its variables and background jobs live on); what each
 * printed, or the failure. The shell leads a process group of its own, ended with everything it left
 * running (servers a block started in the background) once the last block is done.
 */
async function runBlocks(blocks: readonly Example[], cwd: string, replacements: Replacements): Promise<string[]> {
  const outputs = mkdtempSync(join(tmpdir(), 'tessera-docs-output-'));
  try {
    const script = ['set -euo pipefail', ...blocks.map((block, index) => `{\n${asRun(block.code, replacements)}\n} > '${join(outputs, String(index))}'`)].join('\n');
    const shell = spawn('bash', ['-c', script], { cwd, detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: { PATH: process.env.PATH ?? '', HOME: cwd, NODE_OPTIONS: '' } });
    let stderr = '';
    shell.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    guardOutput(`stderr of the docs session in ${cwd}`, () => stderr);
    const timer = setTimeout(() => shell.kill('SIGKILL'), 60_000);
    const status = await new Promise<number | null>((resolve) => shell.once('exit', (code) => resolve(code)));
    clearTimeout(timer);
    await endGroup(shell.pid!);
    const printed = blocks.map((_, index) => (existsSync(join(outputs, String(index))) ? readFileSync(join(outputs, String(index)), 'utf8') : undefined));
    if (status !== 0) {
      const failed = blocks[printed.filter((text) => text !== undefined).length - 1];
      expect.fail(`${failed ? `${failed.page}:${failed.line}` : 'the session'} failed (exit ${status}):\n${printed.join('')}${stderr}`);
    }
    return printed.map((text) => text ?? '');
  } finally {
    rmSync(outputs, { recursive: true, force: true });
  }
}

/** Ends what a session's shell left running: SIGTERM to its process group, SIGKILL to what outlives two seconds. */
async function endGroup(leader: number): Promise<void> {
  const signal = (name: NodeJS.Signals | 0) => {
    try {
      process.kill(-leader, name);
      return true;
    } catch {
      return false; // the group is empty: nothing is left running
    }
  };
  if (!signal('SIGTERM')) return;
  for (let waited = 0; waited < 2_000 && signal(0); waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  signal('SIGKILL');
}

describe('the runnable examples of the docs run as written (run: SESSION blocks)', function () {
  this.timeout(120_000);

  const sessions = new Map<string, Example[]>();
  for (const example of examples.filter((candidate) => candidate.kind === 'run')) sessions.set(example.note!, [...(sessions.get(example.note!) ?? []), example]);

  it('every session the docs name is defined here, and every session defined here is in the docs', () => {
    expect([...sessions.keys()].sort()).to.deep.equal(Object.keys(SESSIONS).sort());
  });

  it('every configuration the docs mark as started by a session names one defined here', () => {
    const named = examples.filter((example) => example.kind === 'complete config' && example.note !== undefined);
    expect(named.filter((example) => !(example.note! in SESSIONS)).map((example) => `${example.page}:${example.line}: ${example.note}`)).to.deep.equal([]);
  });

  for (const [name, session] of Object.entries(SESSIONS)) {
    it(`${name}: every block runs, and prints what the docs show after it`, async function () {
      const missing = session.needs?.find((program) => spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status !== 0);
      if (missing !== undefined) {
        process.stdout.write(`      skipping the ${name} session: ${missing} is not installed (scripts/install-redis.sh installs redis-server)\n`);
        this.skip();
      }
      const blocks = sessions.get(name) ?? [];
      expect(blocks, `run: ${name} blocks`).to.not.be.empty;
      const cwd = mkdtempSync(join(tmpdir(), `tessera-docs-${name}-`));
      let server: Built | undefined;
      try {
        const replacements: [string, string][] = [];
        for (const port of session.ports ?? []) replacements.push([String(port), String(await freePortBut(replacements))]);
        for (const path of session.paths ?? []) replacements.push([path, './']);
        for (const [path, text] of Object.entries(session.files?.() ?? {})) {
          mkdirSync(dirname(join(cwd, path)), { recursive: true });
          writeFileSync(join(cwd, path), asRun(text, replacements));
          if (path.endsWith('.yaml')) rememberConfig(parseYaml(text));
        }
        if (session.inCheckout) symlinkSync(join(ROOT, 'packages'), join(cwd, 'packages'));
        if (session.server === 'demo') {
          rememberSecret('Mellon', 'the demo password');
          server = await startBuilt(['--port', '0'], { TESSERA_SERVER__HOST: '127.0.0.1' }, cwd);
        } else if (session.server) {
          const config = session.server.config();
          rememberConfig(parseYaml(config));
          writeFileSync(join(cwd, 'tessera-under-test.yaml'), config);
          server = await startBuilt(['--config', 'tessera-under-test.yaml', '--port', '0'], { TESSERA_SERVER__HOST: '127.0.0.1' }, cwd);
        }
        if (server) replacements.push([DOCS_ORIGIN, new URL(server.url).origin]);
        const printed = await runBlocks(blocks, cwd, replacements);
        printed.forEach((text) => rememberAnswer(text, undefined));
        for (const [index, block] of blocks.entries()) {
          const shown = outputAfter(block);
          if (shown === undefined) continue;
          const actual = replacements.reduceRight((text, [docs, ours]) => text.replaceAll(ours, docs), printed[index]!);
          expect(withoutRunDetails(actual), `${block.page}:${block.line} printed`).to.equal(withoutRunDetails(shown.code));
        }
        session.check?.(printed, cwd);
      } finally {
        await server?.stop();
        rmSync(cwd, { recursive: true, force: true });
      }
    });
  }
});

/** A free port none of the session's replacements took already. */
async function freePortBut(taken: Replacements): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (!taken.some(([, ours]) => ours === String(port))) return port;
  }
}

/** The output block right after `block` on its page, if the next block of the page is one. */
function outputAfter(block: Example): Example | undefined {
  const onPage = examples.filter((example) => example.page === block.page);
  const next = onPage[onPage.indexOf(block) + 1];
  return next?.kind === 'output' ? next : undefined;
}
