import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBuilt } from '../support/built-server.js';

/** The CommonJS packages (by name) a server loaded, from its module cache as it exits, once it served a login. */
async function packagesLoadedBy(args: string[]): Promise<{ readonly status: number; readonly loaded: Set<string> }> {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-drivers-'));
  try {
    const dump = join(dir, 'loaded.json');
    const preload = join(dir, 'dump-loaded.cjs');
    writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(dump)}, JSON.stringify(Object.keys(require.cache))));\n`);
    const server = await startBuilt(args, { NODE_OPTIONS: `--require ${preload}` });
    const login = await fetch(`${server.url}/v1/tickets`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'username=casuser&password=Mellon' });
    expect(await server.stop()).to.equal(0);
    const files = JSON.parse(readFileSync(dump, 'utf8')) as string[];
    // .../node_modules/.pnpm/<name>@<version>/node_modules/<name>/... → <name>
    const names = files.flatMap((file) => /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1] ?? []);
    return { status: login.status, loaded: new Set(names) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('storage drivers load only for the storage that uses them', function () {
  this.timeout(30_000);

  it('a server on the in-memory default serves a login without ever loading the MongoDB or Redis driver', async () => {
    const { status, loaded } = await packagesLoadedBy(['--port', '0']);
    expect(status).to.equal(201);
    // What the server does load is seen: the dump is of the real process, not an empty one.
    expect(loaded).to.include('koa');
    expect([...loaded].filter((name) => /^(mongodb|ioredis|@mongodb-js\/|@ioredis\/)/.test(name))).to.deep.equal([]);
  });
});
