import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { knownModuleNames } from '@tessera/cli-server';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The files every module passes through: they take what modules declare and never name one (docs/adding-a-module.md). */
const CENTRAL_FILES = [
  'packages/core/src/use-cases/cas-core.ts',
  'packages/adapter-koa/src/app.ts',
  'packages/adapter-koa/src/http-module.ts',
  'packages/cli-server/src/config/demo.ts',
  'packages/cli-server/src/config/schema.ts',
  'packages/cli-server/src/container.ts',
  'packages/cli-server/src/keys.ts',
  'packages/cli-server/src/listener.ts',
  'packages/cli-server/src/server.ts',
];

/** Where a module keeps its parts, one folder per package it touches. */
const MODULE_FOLDERS = ['packages/core/src/modules', 'packages/adapter-koa/src/modules', 'packages/cli-server/src/modules'];

function importsOf(source: string): string[] {
  return [...source.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => match[1]!);
}

describe('a module is one unit (docs/adding-a-module.md)', () => {
  const modules = knownModuleNames();

  for (const file of CENTRAL_FILES) {
    it(`${file} names no module: it imports none of their folders and has no module name in its code`, () => {
      const source = readFileSync(join(ROOT, file), 'utf8');
      const moduleImports = importsOf(source).filter((path) => /\/modules\/(?!index\.js$|module\.js$)/.test(path));
      expect(moduleImports, 'imports of a module folder').to.deep.equal([]);
      const named = modules.filter((name) => new RegExp(`['"]${name}['"]`).test(source));
      expect(named, 'module names in string literals').to.deep.equal([]);
    });
  }

  it('every listed module declares itself in cli-server/src/modules/<name>/index.ts', () => {
    const missing = modules.filter((name) => !existsSync(join(ROOT, 'packages/cli-server/src/modules', name, 'index.ts')));
    expect(missing).to.deep.equal([]);
  });

  it('every module folder, in every package, belongs to a listed module: none is half added', () => {
    const strays = MODULE_FOLDERS.flatMap((folder) =>
      readdirSync(join(ROOT, folder), { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && !modules.includes(entry.name))
        .map((entry) => `${folder}/${entry.name}`),
    );
    expect(strays).to.deep.equal([]);
  });

  it("the README's module table has a row for every module, and no other", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('## Modules'), readme.indexOf('\n\n', readme.indexOf('| Module |')));
    const rows = [...table.matchAll(/^\| `([a-z0-9]+)`/gm)].map((match) => match[1]);
    expect(rows).to.deep.equal(modules);
  });

  it('the check itself finds a module folder imported by a central file, and a module named in one', () => {
    const moduleImport = importsOf("import { x } from '../modules/tokens/config.js';").filter((path) => /\/modules\/(?!index\.js$|module\.js$)/.test(path));
    expect(moduleImport).to.deep.equal(['../modules/tokens/config.js']);
    expect(importsOf("import { MODULES } from './modules/index.js';").filter((path) => /\/modules\/(?!index\.js$|module\.js$)/.test(path))).to.deep.equal([]);
    expect(modules.filter((name) => new RegExp(`['"]${name}['"]`).test("if (config.modules.includes('otp')) {}"))).to.deep.equal(['otp']);
  });
});
