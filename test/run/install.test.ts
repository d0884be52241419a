import { expect } from 'chai';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Manifest {
  readonly name: string;
  readonly bin?: Readonly<Record<string, string>>;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
}

/** Every package.json of the workspace that git tracks, by folder. */
function manifests(): Map<string, Manifest> {
  const tracked = execFileSync('git', ['ls-files', 'package.json', '*/package.json'], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n');
  return new Map(tracked.map((file) => [file.replace(/\/?package\.json$/, '') || '.', JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Manifest]));
}

// `pnpm install` on a fresh clone prints no warning: none about cyclic workspace dependencies, none about bins it cannot link.
describe('install is quiet', () => {
  const workspace = manifests();
  const byName = new Map([...workspace.values()].map((manifest) => [manifest.name, manifest]));

  it('no workspace package depends on itself through others (dev dependencies included)', () => {
    const edges = (manifest: Manifest) => Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).filter((name) => byName.has(name));
    const cycle = (name: string, path: readonly string[]): string[] | undefined => {
      if (path.includes(name)) return [...path.slice(path.indexOf(name)), name];
      for (const next of edges(byName.get(name)!)) {
        const found = cycle(next, [...path, name]);
        if (found) return found;
      }
      return undefined;
    };
    for (const name of byName.keys()) expect(cycle(name, []), name).to.equal(undefined);
  });

  it('every bin is a file in the repository, not build output, so installing links it before any build', () => {
    const bins = [...workspace].flatMap(([folder, manifest]) => Object.values(manifest.bin ?? {}).map((target) => join(folder, target)));
    expect(bins).to.deep.equal(['packages/cli-server/bin/tessera.js']);
    for (const bin of bins) {
      expect(spawnSync('git', ['ls-files', '--error-unmatch', bin], { cwd: ROOT }).status, `${bin} is tracked`).to.equal(0);
    }
  });

  it('the linked tessera command and the root script run the CLI', () => {
    const linked = spawnSync(join(ROOT, 'test/node_modules/.bin/tessera'), ['--help'], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    expect(linked.status, linked.stderr).to.equal(0);
    expect(linked.stdout).to.match(/^Usage:\n {2}tessera start /);
    const root = workspace.get('.') as Manifest & { scripts: Record<string, string> };
    expect(root.scripts['tessera']).to.match(/ && node packages\/cli-server\/bin\/tessera\.js$/);
  });
});
