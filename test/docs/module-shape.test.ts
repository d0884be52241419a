import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { knownModuleNames } from '@tessera/cli-server';
import { headings, links, readPage } from './markdown.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The files every module passes through: they take what modules declare and never name one (docs/adding-a-module.md). */
const CENTRAL_FILES = [
  'packages/core/src/use-cases/cas-core.ts',
  'packages/adapter-koa/src/app.ts',
  'packages/adapter-koa/src/http-module.ts',
  'packages/adapter-koa/src/request/credential-request.ts',
  'packages/adapter-koa/src/request/username-password-extractor.ts',
  'packages/cli-server/src/authentication/authentication.ts',
  'packages/cli-server/src/authentication/password-handlers.ts',
  'packages/cli-server/src/config/demo.ts',
  'packages/cli-server/src/config/schema.ts',
  'packages/cli-server/src/container.ts',
  'packages/cli-server/src/keys.ts',
  'packages/cli-server/src/listener.ts',
  'packages/cli-server/src/request-parameters.ts',
  'packages/cli-server/src/server.ts',
];

/** The sections of every module's page, in order (docs/modules.md says what goes in each). */
const MODULE_PAGE_SECTIONS = ['What it adds', 'Settings', 'Endpoints', 'Examples', 'Notes'];

/** Where a module keeps its parts, one folder per package it touches. */
const MODULE_FOLDERS = ['packages/core/src/modules', 'packages/adapter-koa/src/modules', 'packages/cli-server/src/modules'];

function importsOf(source: string): string[] {
  return [...source.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => match[1]!);
}

/** Imports of a module's folder; the module list and the module type are central. */
function moduleFolderImports(source: string): string[] {
  return importsOf(source).filter((path) => /\/modules\/(?!index\.js$|module\.js$)/.test(path));
}

/** Every TypeScript file under `folder`, by its path from the repository root. */
function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(folder, entry.name)) : entry.name.endsWith('.ts') ? [join(folder, entry.name)] : [],
  );
}

/** The files of `folder` in an import cycle with `file` (relative imports, type-only ones included): the strongly connected part holding it. */
function importCycleOf(folder: string, file: string): string[] {
  const files = sourceFiles(folder);
  const imports = new Map(
    files.map((from) => [from, importsOf(readFileSync(join(ROOT, from), 'utf8')).filter((path) => path.startsWith('.')).map((path) => relative(ROOT, resolve(ROOT, dirname(from), path.replace(/\.js$/, '.ts'))))]),
  );
  const reachable = (start: string, step: (from: string) => string[]): Set<string> => {
    const seen = new Set<string>();
    const queue = [start];
    while (queue.length > 0) for (const next of step(queue.pop()!)) if (!seen.has(next)) (seen.add(next), queue.push(next));
    return seen;
  };
  const from = reachable(file, (at) => imports.get(at) ?? []);
  const to = reachable(file, (at) => files.filter((candidate) => imports.get(candidate)?.includes(at)));
  return [...from].filter((candidate) => to.has(candidate)).sort();
}

/** The module names spelt as a string in code (prose in backticks is no code). */
function namedModules(source: string, modules: readonly string[]): string[] {
  return modules.filter((name) => new RegExp(`['"]${name}['"]`).test(source));
}

describe('a module is one unit (docs/adding-a-module.md)', () => {
  const modules = knownModuleNames();

  for (const file of CENTRAL_FILES) {
    it(`${file} names no module: it imports none of their folders and has no module name in its code`, () => {
      const source = readFileSync(join(ROOT, file), 'utf8');
      expect(moduleFolderImports(source), 'imports of a module folder').to.deep.equal([]);
      expect(namedModules(source, modules), 'module names in string literals').to.deep.equal([]);
    });
  }

  it("a module's code reads its own settings only: no module file imports the root Config type or reads the module list", () => {
    const offenders = sourceFiles('packages/cli-server/src/modules')
      .filter((file) => !['index.ts', 'module.ts'].includes(relative('packages/cli-server/src/modules', file)))
      .filter((file) => /config\/schema\.js'|\.modules\b/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(offenders).to.deep.equal([]);
  });

  it('the root schema is in no import cycle: it imports the modules, and nothing a module imports leads back to it', () => {
    expect(importCycleOf('packages/cli-server/src', 'packages/cli-server/src/config/schema.ts')).to.deep.equal([]);
  });

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

  it("docs/modules.md's module table has a row for every module, and no other", () => {
    const page = readFileSync(join(ROOT, 'docs/modules.md'), 'utf8');
    const table = page.slice(page.indexOf('| Module |'), page.indexOf('\n\n', page.indexOf('| Module |')));
    const rows = [...table.matchAll(/^\| `([a-z0-9]+)`/gm)].map((match) => match[1]);
    expect(rows).to.deep.equal(modules);
  });

  it('every module has a page, docs/modules/<name>.md, with the sections every module page has, in order, linked from docs/modules.md', () => {
    const index = readPage(ROOT, 'docs/modules.md');
    const linked = new Set(links(index).map((link) => link.target));
    for (const name of modules) {
      const page = `docs/modules/${name}.md`;
      expect(existsSync(join(ROOT, page)), page).to.equal(true);
      const sections = headings(readPage(ROOT, page)).filter((heading) => heading.level === 2).map((heading) => heading.text);
      expect(sections, page).to.deep.equal(MODULE_PAGE_SECTIONS);
      expect(linked.has(`modules/${name}.md`), `docs/modules.md links ${page}`).to.equal(true);
    }
    const pages = readdirSync(join(ROOT, 'docs/modules')).filter((file) => file.endsWith('.md'));
    expect(pages.map((file) => file.replace(/\.md$/, '')).sort()).to.deep.equal([...modules].sort());
  });

  it("the module map of docs/architecture.md has a node for every module", () => {
    const map = /\*\*The module map\.\*\*[^]*?```mermaid\n([^]*?)```/.exec(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'))?.[1] ?? '';
    const nodes = [...map.matchAll(/^ {4}([a-z0-9]+)\["/gm)].map((match) => match[1]);
    expect(nodes.filter((node) => modules.includes(node!))).to.deep.equal(modules);
  });

  it('the check itself finds a module folder imported by a central file, and a module named in one', () => {
    expect(moduleFolderImports("import { x } from '../modules/tokens/config.js';")).to.deep.equal(['../modules/tokens/config.js']);
    expect(moduleFolderImports("import { x } from '@tessera/core/modules/otp';")).to.deep.equal(['@tessera/core/modules/otp']);
    expect(moduleFolderImports("import { MODULES } from './modules/index.js';")).to.deep.equal([]);
    expect(namedModules("if (config.modules.includes('otp')) {}", modules)).to.deep.equal(['otp']);
    expect(namedModules('the `otp` module', modules)).to.deep.equal([]);
  });
});
