import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The project's contract: how to start it and how to test it, from a fresh machine with Node and npm. */
const START = 'npx --yes pnpm@10.34.8 install --frozen-lockfile && npx --yes pnpm@10.34.8 start';
const TEST = 'npx --yes pnpm@10.34.8 install --frozen-lockfile && npx --yes pnpm@10.34.8 test';

describe('README.md is the front door', () => {
  it('is short enough to read in five minutes: at most 200 lines (the rest is in docs/)', () => {
    expect(README.split('\n').length).to.be.at.most(200);
  });

  it('holds the two commands, and CI runs the test one exactly as written there', () => {
    expect(README).to.include(`\n${START}\n`);
    expect(README).to.include(`\n${TEST}\n`);
    expect(readFileSync(join(ROOT, '.ci/run'), 'utf8')).to.include(`\n${TEST} 2>&1`);
  });
});
