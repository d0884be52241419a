import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { parseConfig } from '@tessera/cli-server';
import { guardOutput } from '../support/log-canary.js';
import { examplesOf, invocationProblems, tesseraInvocations, usagesOf, withoutRunDetails, type Example, type ExampleKind } from './examples.js';
import { documentationPages, parsePage, readPage } from './markdown.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = join(ROOT, 'packages/cli-server/dist/main.js');

const pages = documentationPages(ROOT).map((path) => readPage(ROOT, path));
const all = pages.map(examplesOf);
const examples = all.flatMap((found) => found.examples);
const ofKind = (...kinds: ExampleKind[]) => examples.filter((example) => kinds.includes(example.kind));
/** The shell blocks: those run, and those not run that are shell commands all the same. */
const shellBlocks = () => examples.filter((example) => example.kind === 'run' || (example.kind === 'not run' && example.language === 'sh'));
const where = (example: Example) => `${example.page}:${example.line}`;

/** Each example's problem, if it has one; fails naming every example that has. */
function expectNone(problems: (string | undefined)[]): void {
  const found = problems.filter((problem): problem is string => problem !== undefined);
  if (found.length > 0) expect.fail(`${found.length} examples are wrong:\n${found.join('\n')}`);
}

function problemOf(example: Example, check: () => void): string | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    return `${where(example)}: ${(error as Error).message.split('\n').join('\n    ')}`;
  }
}

/** A service definition is read as the `services` setting reads it: through the Apereo CAS codec. */
function parseService(definition: unknown): void {
  parseConfig({ services: [definition] });
}

/**
 * Starts the built CLI on `file` as an operator would, waits for its ready line and stops it with
 * SIGTERM. Only the address is chosen here (loopback, a free port), through the environment and
 * --port, so the file stays exactly as copied.
 */
function startAndStop(file: string): Promise<{ code: number | null; output: string; ready: boolean }> {
  const child = spawn(process.execPath, [MAIN, '--config', file, '--port', '0'], {
    cwd: mkdtempSync(join(tmpdir(), 'tessera-docs-run-')),
    env: { PATH: process.env.PATH ?? '', NODE_OPTIONS: '', TESSERA_SERVER__HOST: '127.0.0.1' },
  });
  let output = '';
  guardOutput(`output of tessera --config ${file}`, () => output);
  let ready = false;
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    if (!ready && output.includes('tessera ready at')) {
      ready = true;
      child.kill('SIGTERM');
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output, ready });
    }),
  );
}

describe('the examples of the docs are run or parsed: README.md and docs/ cannot drift from the code', function () {
  this.timeout(60_000);

  it('every fenced block says what it is, and every shell or configuration block is run by a test or says why not', () => {
    expectNone(all.flatMap((found) => found.problems));
    expect(examples.length).to.be.greaterThan(0);
  });

  it('every configuration excerpt (YAML) passes the configuration schema', () => {
    expectNone(ofKind('settings', 'complete config').map((example) => problemOf(example, () => parseConfig(parseYaml(example.code)))));
  });

  it('every service definition passes the Apereo CAS service codec, and every excerpt of one with a name and serviceId around it', () => {
    expectNone([
      ...ofKind('service').map((example) => problemOf(example, () => parseService(JSON.parse(example.code)))),
      ...ofKind('service fragment').map((example) =>
        problemOf(example, () => parseService({ name: 'Example', serviceId: '^https://example\\.org/.*', ...(JSON.parse(`{${example.code}}`) as object) })),
      ),
    ]);
  });

  it("every other program's YAML or JSON parses", () => {
    expectNone([...ofKind('yaml').map((example) => problemOf(example, () => void parseYaml(example.code))), ...ofKind('json').map((example) => problemOf(example, () => void JSON.parse(example.code)))]);
  });

  it('every shell example parses (bash -n)', () => {
    expectNone(
      shellBlocks().map((example) => {
        const result = spawnSync('bash', ['-n'], { input: example.code, encoding: 'utf8' });
        return result.status === 0 ? undefined : `${where(example)}: ${result.stderr.trim()}`;
      }),
    );
  });

  it('every tessera command and option a shell example uses exists', () => {
    const help = spawnSync(process.execPath, [MAIN, '--help'], { encoding: 'utf8' }).stdout;
    const usages = usagesOf(help);
    expect(usages.map((usage) => usage.name.join(' '))).to.include.members(['start', 'config check', 'hash-password', 'services import']);
    const invocations = shellBlocks().flatMap(tesseraInvocations);
    expect(invocations.length, 'tessera commands in the examples').to.be.greaterThan(0);
    expectNone(invocations.flatMap((invocation) => invocationProblems(invocation, usages)));
  });

  it('docs/cli.md shows every command of tessera --help', () => {
    const help = spawnSync(process.execPath, [MAIN, '--help'], { encoding: 'utf8' }).stdout;
    const commands = usagesOf(help).map((usage) => usage.name.join(' '));
    expect(commands).to.include.members(['hash-password', 'generate-keys', 'services import', 'services validate', 'config check']);
    const page = readPage(ROOT, 'docs/cli.md').text;
    expect(commands.filter((command) => !page.includes(`| \`tessera ${command}`))).to.deep.equal([]);
  });

  it('every example no test runs says why, and every diagram is a Mermaid diagram', () => {
    expectNone([
      ...ofKind('not run', 'settings', 'service', 'service fragment', 'yaml', 'json').map((example) =>
        example.note && example.note.length >= 10 ? undefined : `${where(example)}: say why no test runs it, in a few words`,
      ),
      ...ofKind('diagram').map((example) => (/^(?:sequenceDiagram|flowchart|graph)\b/.test(example.code) ? undefined : `${where(example)}: not a Mermaid sequence diagram or flowchart`)),
    ]);
  });

  it('every complete configuration starts the server exactly as copied (one a session starts, there)', async () => {
    const configs = ofKind('complete config').filter((example) => example.note === undefined);
    expect(configs, 'complete configurations').to.have.length.of.at.least(1);
    for (const example of configs) {
      const file = join(mkdtempSync(join(tmpdir(), 'tessera-docs-')), 'tessera.yaml');
      writeFileSync(file, example.code);
      const run = await startAndStop(file);
      expect(run.ready, `${where(example)} did not start:\n${run.output}`).to.equal(true);
      expect(run.code, `${where(example)} stopped with ${run.code}:\n${run.output}`).to.equal(0);
    }
  });

  describe('how the harness reads the docs', () => {

    it('tells each block by its marker, and fails a shell or configuration block that is neither run nor says why not', () => {
      const text = [
        '# X',
        '',
        '```sh',
        'echo one',
        '```',
        '',
        '<!-- example: run: walkthrough -->',
        '```sh',
        'echo two',
        '```',
        '',
        '<!-- example: not run: Apache reads this, not tessera -->',
        '```apache',
        'ProxyPass /cas http://tessera:8080/cas',
        '```',
        '',
        '```xml',
        '<a/>',
        '```',
        '',
        '<!-- example: run -->',
        '```sh',
        'echo three',
        '```',
        '',
        '```yaml',
        'modules: [rest]',
        '```',
        '',
        '<!-- example: settings -->',
        '```yaml',
        'modules: [rest]',
        '```',
        '',
        '<!-- example: complete config: storage -->',
        '```yaml',
        'modules: [rest]',
        '```',
        '',
        '```json',
        '{}',
        '```',
        '',
        '```mermaid',
        'flowchart LR',
        '```',
        '',
      ].join('\n');
      const { examples: found, problems } = examplesOf(parsePage('docs/x', text));
      expect(found.map((example) => [example.line, example.kind, example.note])).to.deep.equal([
        [8, 'run', 'walkthrough'],
        [13, 'not run', 'Apache reads this, not tessera'],
        [36, 'complete config', 'storage'],
        [44, 'diagram', undefined],
      ]);
      expect(problems).to.deep.equal([
        'docs/x:3: a `sh` block is run by a test or says why not: mark it <!-- example: run: SESSION --> (run by test/docs/sessions.test.ts) or <!-- example: not run: WHY -->',
        'docs/x:17: a `xml` block needs a marker saying what it is (<!-- example: output -->, <!-- example: not run: WHY -->, …)',
        'docs/x:22: "run" needs a note: the session it runs in (<!-- example: run: SESSION -->)',
        "docs/x:26: a `yaml` block is run by a test or says why not: mark it <!-- example: complete config --> (started as written), <!-- example: settings: WHY --> or, for another program's file, <!-- example: yaml: WHY -->",
        'docs/x:31: "settings" needs a note: why no test runs it (<!-- example: settings: WHY -->)',
        "docs/x:40: a `json` block is run by a test or says why not: mark it <!-- example: service: WHY -->, <!-- example: service fragment: WHY --> or, for another program's file, <!-- example: json: WHY -->",
      ]);
    });

    it('finds the tessera commands of a shell example and the options their commands lack', () => {
      const usages = usagesOf(
        '  tessera start [--config FILE] [--port N]          serve (the default command)\n  tessera services import DIR [--config FILE]       check every file\n  tessera otp new --user NAME                       print a secret\n  tessera COMMAND --help\n',
      );
      expect(usages).to.deep.equal([
        { name: ['start'], options: ['--config', '--port'] },
        { name: ['services', 'import'], options: ['--config'] },
        { name: ['otp', 'new'], options: ['--user'] },
      ]);
      const example = { page: 'docs/x', line: 3, language: 'sh', kind: 'not run', note: 'an example of the test', code: '' } as const;
      const code = [
        'npx --yes pnpm@10.34.8 -s tessera services import ./dir --config t.yaml   # imports',
        'printf x | npx --yes pnpm@10.34.8 -s tessera otp new --user alice --quiet',
        'node packages/cli-server/dist/main.js --config t.yaml --port 8081 &',
        'docker run --rm -v "$PWD/tessera.yaml:/etc/tessera/tessera.yaml:ro" tessera servces list',
        'docker build -t tessera .',
      ].join('\n');
      const invocations = tesseraInvocations({ ...example, code });
      expect(invocations.map((invocation) => invocation.words.join(' '))).to.deep.equal([
        'services import ./dir --config t.yaml',
        'otp new --user alice --quiet',
        '--config t.yaml --port 8081',
        'servces list',
      ]);
      expect(invocations.flatMap((invocation) => invocationProblems(invocation, usages))).to.deep.equal([
        'docs/x:3: tessera otp new --user alice --quiet: tessera otp new has no option --quiet',
        'docs/x:3: tessera servces list: no such command',
      ]);
    });

    it('sets times and ticket ids aside when it compares what a command printed with the output shown', () => {
      expect(withoutRunDetails('<cas:date>2026-11-22T00:28:11Z</cas:date> TGT-1-kp4P-Zt7-vm ST-2-u3M-vm PGTIOU-… PT-…\n')).to.equal(
        '<cas:date><time></cas:date> <TGT> <ST> <PGTIOU> <PT>',
      );
    });
  });
});
