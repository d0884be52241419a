import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { rememberAnswer, rememberConfig, rememberSecret } from '../support/log-canary.js';
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
  /** Checks of what the blocks printed, beyond the output blocks the docs show after them. */
  readonly check?: (printed: readonly string[]) => void;
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
  cli: { files: () => ({ 'tessera.yaml': exampleCode('docs/configuration.md', 'complete config') }) },
  // docs/getting-started.md: a certificate, a hash, and config check on the page's tessera.yaml and service file.
  'getting-started': {
    files: () => ({
      'tessera.yaml': exampleCode('docs/getting-started.md', 'settings'),
      'services/app.json': exampleCode('docs/getting-started.md', 'service'),
    }),
    check: ([, hash]) => expect(hash).to.match(/^\$argon2id\$v=19\$/),
  },
  // docs/modules/login.md: the browser login and single sign-on with curl, against the demo.
  login: { server: 'demo' },
  // docs/modules/otp.md: a secret for alice, and her login refused without a code on the page's configuration.
  otp: {
    server: { config: () => exampleCode('docs/modules/otp.md', 'complete config') },
    check: ([secret]) => expect(secret).to.match(/^otpSecret: [A-Z2-7]{32}\notpauth:\/\/totp\/tessera:alice\?issuer=tessera&secret=[A-Z2-7]{32}&algorithm=SHA1&digits=6&period=30\n$/),
  },
  // docs/modules/rest.md: log in, a wrong password, a service ticket, /v1/users and logout, against the demo.
  rest: { server: 'demo' },
  // docs/modules/throttle.md: a lock after three failures, on the page's configuration.
  throttle: { server: { config: () => exampleCode('docs/modules/throttle.md', 'complete config') } },
  // docs/modules/tokens.md: a TGT and an ST as JWTs on the page's configuration, and a fresh key pair.
  tokens: {
    server: { config: () => exampleCode('docs/modules/tokens.md', 'complete config') },
    check: ([, keys]) => {
      const { signingKey, encryptionKey } = JSON.parse(keys!) as { signingKey: string; encryptionKey: string };
      expect(Buffer.byteLength(signingKey)).to.be.at.least(64);
      expect(Buffer.from(encryptionKey, 'base64url')).to.have.length(32);
    },
  },
  // docs/users.md: a hash of the password given on stdin.
  users: { check: ([hash]) => expect(hash).to.match(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[\w+/]+\$[\w+/]+\n$/) },
  // docs/modules/services.md: both variants of registration on the page's configuration.
  'services-module': {
    server: { config: () => exampleCode('docs/modules/services.md', 'complete config') },
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

/** What a reader types, as this checkout runs it: the built tessera command, and the session's server for the docs' address. */
function asRun(code: string, origin: string): string {
  return code.replaceAll('npx --yes pnpm@10.34.8 -s tessera', `node ${TESSERA}`).replaceAll(DOCS_ORIGIN, origin);
}

/**
 * Runs the blocks in one bash, `set -euo pipefail`, each block's stdout into a file of its own (a
 * `{ …; }` group runs in the same shell, so its variables live on); what each printed, or the failure.
 */
function runBlocks(blocks: readonly Example[], cwd: string, origin: string): string[] {
  const outputs = mkdtempSync(join(tmpdir(), 'tessera-docs-output-'));
  try {
    const script = ['set -euo pipefail', ...blocks.map((block, index) => `{\n${asRun(block.code, origin)}\n} > '${join(outputs, String(index))}'`)].join('\n');
    const result = spawnSync('bash', ['-c', script], { cwd, encoding: 'utf8', timeout: 60_000, env: { PATH: process.env.PATH ?? '', HOME: cwd, NODE_OPTIONS: '' } });
    const printed = blocks.map((_, index) => (existsSync(join(outputs, String(index))) ? readFileSync(join(outputs, String(index)), 'utf8') : undefined));
    if (result.status !== 0) {
      const failed = blocks[printed.filter((text) => text !== undefined).length - 1];
      expect.fail(`${failed ? `${failed.page}:${failed.line}` : 'the session'} failed (exit ${result.status}):\n${printed.join('')}${result.stderr}`);
    }
    return printed.map((text) => text ?? '');
  } finally {
    rmSync(outputs, { recursive: true, force: true });
  }
}

describe('the runnable examples of the docs run as written (run: SESSION blocks)', function () {
  this.timeout(120_000);

  const sessions = new Map<string, Example[]>();
  for (const example of examples.filter((candidate) => candidate.kind === 'run')) sessions.set(example.note!, [...(sessions.get(example.note!) ?? []), example]);

  it('every session the docs name is defined here, and every session defined here is in the docs', () => {
    expect([...sessions.keys()].sort()).to.deep.equal(Object.keys(SESSIONS).sort());
  });

  for (const [name, session] of Object.entries(SESSIONS)) {
    it(`${name}: every block runs, and prints what the docs show after it`, async () => {
      const blocks = sessions.get(name) ?? [];
      expect(blocks, `run: ${name} blocks`).to.not.be.empty;
      const cwd = mkdtempSync(join(tmpdir(), `tessera-docs-${name}-`));
      let server: Built | undefined;
      try {
        for (const [path, text] of Object.entries(session.files?.() ?? {})) {
          mkdirSync(dirname(join(cwd, path)), { recursive: true });
          writeFileSync(join(cwd, path), text);
        }
        if (session.server === 'demo') {
          rememberSecret('Mellon', 'the demo password');
          server = await startBuilt(['--port', '0'], { TESSERA_SERVER__HOST: '127.0.0.1' }, cwd);
        } else if (session.server) {
          const config = session.server.config();
          rememberConfig(parseYaml(config));
          writeFileSync(join(cwd, 'tessera-under-test.yaml'), config);
          server = await startBuilt(['--config', 'tessera-under-test.yaml', '--port', '0'], { TESSERA_SERVER__HOST: '127.0.0.1' }, cwd);
        }
        const origin = server ? new URL(server.url).origin : DOCS_ORIGIN;
        const printed = runBlocks(blocks, cwd, origin);
        printed.forEach((text) => rememberAnswer(text, undefined));
        for (const [index, block] of blocks.entries()) {
          const shown = outputAfter(block);
          if (shown === undefined) continue;
          const actual = printed[index]!.replaceAll(origin, DOCS_ORIGIN);
          expect(withoutRunDetails(actual), `${block.page}:${block.line} printed`).to.equal(withoutRunDetails(shown.code));
        }
        session.check?.(printed);
      } finally {
        await server?.stop();
        rmSync(cwd, { recursive: true, force: true });
      }
    });
  }
});

/** The output block right after `block` on its page, if the next block of the page is one. */
function outputAfter(block: Example): Example | undefined {
  const onPage = examples.filter((example) => example.page === block.page);
  const next = onPage[onPage.indexOf(block) + 1];
  return next?.kind === 'output' ? next : undefined;
}
