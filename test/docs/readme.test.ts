import { expect } from 'chai';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@tessera/testkit';
import { startBuilt } from '../support/built-server.js';
import { SCREENSHOT_BRANDING } from '../modules/login/support.js';

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

  it("the quick start's other port: --port and TESSERA_SERVER__PORT, as written there, start the demo on that port", async function () {
    this.timeout(40_000);
    const [, byOption] = /`npx --yes pnpm@10\.34\.8 start (--port \d+)`/.exec(README) ?? [];
    const [, byVariable] = /`(TESSERA_SERVER__PORT=\d+)`/.exec(README) ?? [];
    expect(byOption, 'the quick start names --port').to.be.a('string');
    expect(byVariable, 'the quick start names TESSERA_SERVER__PORT').to.be.a('string');
    // The README's port may be taken on this machine: a free one in its place, the rest as written.
    const folder = mkdtempSync(join(tmpdir(), 'tessera-readme-port-'));
    const startedOn = async (start: (port: string) => ReturnType<typeof startBuilt>) => {
      const port = String(await freePort());
      const server = await start(port);
      await server.stop();
      return { url: server.url, port };
    };
    const option = byOption!.split(' ')[0]!;
    const variable = byVariable!.split('=')[0]!;
    for (const { url, port } of [await startedOn((port) => startBuilt([option, port], {}, folder)), await startedOn((port) => startBuilt([], { [variable]: port }, folder))]) {
      expect(url).to.equal(`http://127.0.0.1:${port}/cas`);
    }
  });

  it("the screenshot's caption names the settings that made it, which the demo does not have", () => {
    const caption = README.slice(README.indexOf('](docs/login-page.png)'), README.indexOf('## Documentation')).replace(/\s+/g, ' ');
    for (const setting of Object.keys(SCREENSHOT_BRANDING)) expect(caption).to.include(`\`login.branding.${setting}\``);
    expect(caption).to.include(SCREENSHOT_BRANDING.title);
    expect(caption).to.include('the demo sets neither');
  });
});
