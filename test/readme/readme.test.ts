import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { guardOutput } from '../support/log-canary.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = join(ROOT, 'packages/cli-server/dist/main.js');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
/** Put on the line before a YAML block that is a whole configuration: this test starts the server on it as written. */
const COMPLETE_CONFIG = '<!-- complete config: the README test starts tessera on it as written -->';

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

/** The YAML blocks marked as complete configurations, in order. */
function completeConfigs(): string[] {
  return [...README.matchAll(new RegExp(`${COMPLETE_CONFIG}\\n\`\`\`yaml\\n([^]*?)\\n\`\`\`\\n`, 'g'))].map((match) => `${match[1]}\n`);
}

/**
 * Starts the built CLI on `file` as an operator would, waits for its ready line and stops it with
 * SIGTERM. Only the address is chosen here (loopback, a free port), through the environment and
 * --port, so the file stays exactly as copied.
 */
function startAndStop(file: string): Promise<{ code: number | null; output: string; ready: boolean }> {
  const child = spawn(process.execPath, [MAIN, '--config', file, '--port', '0'], {
    cwd: mkdtempSync(join(tmpdir(), 'tessera-readme-run-')),
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

describe('README', function () {
  this.timeout(60_000);

  it('has a table of contents linking every section, each link to a heading that exists', () => {
    const contents = /\n## Contents\n\n([^]*?)\n\n/.exec(README)?.[1];
    expect(contents, 'a "## Contents" section').to.be.a('string');
    const linked = [...contents!.matchAll(/\]\(#([^)]+)\)/g)].map((match) => match[1]!);
    const sections = [...README.matchAll(/^## (.+)$/gm)].map((match) => anchorOf(match[1]!)).filter((anchor) => anchor !== 'contents');
    expect(linked).to.include.members(sections);
    const headings = new Set([...README.matchAll(/^#{2,4} (.+)$/gm)].map((match) => anchorOf(match[1]!)));
    for (const anchor of linked) expect(headings.has(anchor), `#${anchor}`).to.equal(true);
  });

  it('shows every command of the tessera CLI', () => {
    const help = spawnSync(process.execPath, [MAIN, '--help'], { encoding: 'utf8' }).stdout;
    const commands = [...help.matchAll(/^ {2}tessera ([a-z-]+(?: [a-z]+)?)/gm)].map((match) => match[1]!);
    expect(commands).to.include.members(['hash-password', 'generate-keys', 'services import', 'services validate', 'config check']);
    for (const command of commands) expect(README, `tessera ${command}`).to.include(`tessera ${command}`);
  });

  it('every YAML block marked as a complete configuration starts the server exactly as copied', async () => {
    const configs = completeConfigs();
    expect(configs, `blocks marked ${COMPLETE_CONFIG}`).to.have.length.of.at.least(1);
    for (const [index, config] of configs.entries()) {
      const file = join(mkdtempSync(join(tmpdir(), 'tessera-readme-')), 'tessera.yaml');
      writeFileSync(file, config);
      const run = await startAndStop(file);
      expect(run.ready, `block ${index + 1} did not start:\n${run.output}`).to.equal(true);
      expect(run.code, `block ${index + 1} stopped with ${run.code}:\n${run.output}`).to.equal(0);
    }
  });
});
