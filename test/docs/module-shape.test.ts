import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { knownModuleNames, MODULES } from '@tessera/cli-server';
import type { TesseraModule } from '@tessera/cli-server';
import { headings, links, readPage } from './markdown.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The sections of every module's page, in order (docs/modules.md says what goes in each). */
const MODULE_PAGE_SECTIONS = ['What it adds', 'Settings', 'Endpoints', 'Examples', 'Notes'];

/** Where a module keeps its parts, one folder per package it touches (testkit's: its contract suites and fakes). */
const MODULE_FOLDERS = ['packages/core/src/modules', 'packages/adapter-koa/src/modules', 'packages/cli-server/src/modules', 'packages/testkit/src/modules'];

/** The files that name every module by design: each package's module list, and the module type. */
const MODULE_LISTS = [...MODULE_FOLDERS.map((folder) => `${folder}/index.ts`), 'packages/cli-server/src/modules/module.ts'];

/**
 * What a central file may say of a module all the same, each with its reason. An entry that no
 * longer matches fails too, so the list shrinks as the code does.
 */
const ALLOWED: Readonly<Record<string, readonly { readonly finding: string; readonly reason: string }[]>> = {
  'packages/adapter-mongo/src/mongo-stores.ts': [{ finding: "names 'services'", reason: "the service registry's collection, central storage: not the services module" }],
  'packages/cli-server/src/config/load.ts': [{ finding: "names 'services'", reason: "raw['services'] is the central `services` setting (the configured service definitions): not the services module" }],
  'packages/cli-server/src/config/demo.ts': [{ finding: 'reads config.services', reason: 'the central `services` setting, to which demo mode adds its services: not the services module' }],
  'packages/cli-server/src/config/initial-services.ts': [{ finding: 'reads config.services', reason: "the central `services` setting, the registry's first services: not the services module" }],
  'packages/cli-server/src/redaction.ts': [
    {
      finding: "names 'otp'",
      reason:
        "defence in depth: `otp` stays among the generic secret-looking names (beside pwd, token), so a code under that name is kept out of lines written before the configuration is read or by a logger without the otp module's declared secret parameter",
    },
  ],
  'packages/testkit/src/slapd/tls-files.ts': [{ finding: "names 'x509'", reason: "openssl's x509 subcommand, signing the test LDAP server's certificate: not the x509 module" }],
};

function importsOf(source: string): string[] {
  return [...source.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => match[1]!);
}

/** Imports of a module's folder; the module list and the module type are central. */
function moduleFolderImports(source: string): string[] {
  return importsOf(source).filter((path) => /\/modules\/(?!index\.js$|module\.js$)/.test(path));
}

/** Reads of a module's settings section: `config.otp`, `settings.tokens`. */
function settingsReads(source: string, modules: readonly string[]): string[] {
  return modules.filter((name) => new RegExp(String.raw`\b(?:config|settings|raw)\??\.${name}\b`).test(source)).map((name) => `config.${name}`);
}

/**
 * Checks of the module list for a name (`config.modules.includes('otp')`): a central file takes what
 * the enabled modules declare instead. Any `.modules` is no such check: adapter-koa's list of
 * HttpModules, the module events' declarations, the list shown at start.
 */
function moduleListChecks(source: string): string[] {
  return [...source.matchAll(/\bmodules\??\.(includes|indexOf|some|find|findIndex|every)\(/g)].map((match) => `modules.${match[1]}(`);
}

/** A name a module's declaration gives one of its concepts, which central code may not spell: what kind of concept, and the name. */
interface Concept {
  readonly kind: string;
  readonly name: string;
}

/**
 * The concepts every listed module declares, by the names central code would spell them: its settings
 * sections, its credential kinds, the second-factor providers it brings, the service classes it brings
 * (by simple name, found in any package), the names they give their protocols, and the keys of its data
 * on services and of the service sections it reads. A name that is a module's own name is left to
 * the module-name check.
 */
function moduleConcepts(modules: readonly TesseraModule[], moduleNames: readonly string[]): Concept[] {
  const concepts = modules.flatMap((module): Concept[] => [
    ...Object.keys(module.sections).map((name) => ({ kind: 'the settings section', name })),
    ...(module.credentialKinds ?? []).map(({ type }) => ({ kind: 'the credential kind', name: type })),
    ...(module.secondFactors ?? []).map(({ id }) => ({ kind: 'the second-factor provider', name: id })),
    ...(module.serviceTypes ?? []).flatMap((type) => [
      ...type.classes.map((name) => ({ kind: 'the service class', name: name.slice(name.lastIndexOf('.') + 1) })),
      ...(type.protocols ?? []).map((name) => ({ kind: 'the protocol', name })),
      { kind: 'the service data', name: type.data.key },
    ]),
    ...(module.serviceSections ?? []).flatMap((section) => [
      ...[...section.keys.read, ...(section.accessStrategyKeys ?? [])].map((name) => ({ kind: 'the service key', name })),
      { kind: 'the service data', name: section.data.key },
    ]),
  ]);
  const unique = new Map(concepts.filter(({ name }) => !moduleNames.includes(name)).map((concept) => [`${concept.kind} ${concept.name}`, concept]));
  return [...unique.values()];
}

/**
 * The concepts spelt in code: a string that is the name (a class also fully qualified in any
 * package), a read of a settings section (`config.registration`), a read of a module's data
 * (`moduleData.oidcClient`). Prose, in comments or in backticks within them, is no code.
 */
function namedConcepts(source: string, concepts: readonly Concept[]): string[] {
  return concepts
    .filter(({ kind, name }) => {
      const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const quoted = new RegExp(String.raw`['"](?:[\w$]+\.)*${escaped}['"]`).test(source);
      if (quoted) return true;
      if (kind === 'the settings section') return new RegExp(String.raw`\b(?:config|settings|raw)\??\.${escaped}\b`).test(source);
      if (kind === 'the service data') return new RegExp(String.raw`\bmoduleData\??\.${escaped}\b`).test(source);
      return false;
    })
    .map(({ kind, name }) => `names ${kind} '${name}'`);
}

/** What a file outside the module folders says of a module: the folders it imports, the names it spells, the settings and the list checks it reads, its concepts. */
function moduleMentions(source: string, modules: readonly string[], concepts: readonly Concept[] = []): string[] {
  return [
    ...moduleFolderImports(source).map((path) => `imports ${path}`),
    ...namedModules(source, modules).map((name) => `names '${name}'`),
    ...settingsReads(source, modules).map((read) => `reads ${read}`),
    ...moduleListChecks(source).map((check) => `checks the module list: ${check}`),
    ...namedConcepts(source, concepts),
  ];
}

/** Every file outside the module folders and the module lists: the central code every module passes through. */
function centralFiles(): string[] {
  const packages = readdirSync(join(ROOT, 'packages')).filter((name) => existsSync(join(ROOT, 'packages', name, 'src')));
  return packages
    .flatMap((name) => sourceFiles(`packages/${name}/src`))
    .filter((file) => !MODULE_LISTS.includes(file) && !MODULE_FOLDERS.some((folder) => file.startsWith(`${folder}/`) && file.slice(folder.length + 1).includes('/')));
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
  const concepts = moduleConcepts(MODULES, modules);

  it("no file outside the module folders names a module or one of its concepts: no import of their folders, no module's name, settings section, credential kind, second-factor provider, service class, protocol or service data in its code, no read of their settings or check of the module list for one", () => {
    const files = centralFiles();
    const mentions = Object.fromEntries(
      files
        .map((file) => [file, moduleMentions(readFileSync(join(ROOT, file), 'utf8'), modules, concepts).filter((finding) => !ALLOWED[file]?.some((allowed) => allowed.finding === finding))] as const)
        .filter(([, found]) => found.length > 0),
    );
    expect(mentions).to.deep.equal({});
    // The scan reaches every package's central code, the packages without a module folder too.
    expect(files).to.include.members(['packages/core/src/use-cases/cas-core.ts', 'packages/adapter-koa/src/app.ts', 'packages/adapter-redis/src/index.ts', 'packages/cli-server/src/cli/commands.ts', 'packages/testkit/src/fakes.ts']);
  });

  it('every allowed mention is still there, so the allow-list holds no stale entry', () => {
    const stale = Object.entries(ALLOWED).flatMap(([file, entries]) => {
      const found = existsSync(join(ROOT, file)) ? moduleMentions(readFileSync(join(ROOT, file), 'utf8'), modules, concepts) : [];
      return entries.filter((entry) => !found.includes(entry.finding)).map((entry) => `${file}: ${entry.finding}`);
    });
    expect(stale).to.deep.equal([]);
  });

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

  it('the check itself finds a module folder imported by a central file, a module named in one, its settings read, the module list checked and its concepts spelt', () => {
    expect(moduleFolderImports("import { x } from '../modules/tokens/config.js';")).to.deep.equal(['../modules/tokens/config.js']);
    expect(moduleFolderImports("import { x } from '@tessera/core/modules/otp';")).to.deep.equal(['@tessera/core/modules/otp']);
    expect(moduleFolderImports("const { otpNew } = await import('../modules/otp/otp-new.js');")).to.deep.equal(['../modules/otp/otp-new.js']);
    expect(moduleFolderImports("import { MODULES } from './modules/index.js';")).to.deep.equal([]);
    expect(namedModules("if (config.modules.includes('otp')) {}", modules)).to.deep.equal(['otp']);
    expect(namedModules('the `otp` module', modules)).to.deep.equal([]);
    expect(moduleMentions("if (config.tokens.issuer) {}", modules)).to.deep.equal(['reads config.tokens']);
    expect(moduleMentions('const on = settings?.throttle !== undefined;', modules)).to.deep.equal(['reads config.throttle']);
    expect(moduleMentions('if (config.modules.some((name) => name === LOGIN)) {}', modules)).to.deep.equal(['checks the module list: modules.some(']);
    expect(moduleMentions("if (names.modules.indexOf('x509') >= 0) {}", modules)).to.deep.equal(["names 'x509'", 'checks the module list: modules.indexOf(']);
    const declared: Concept[] = [
      { kind: 'the service class', name: 'SampleService' },
      { kind: 'the second-factor provider', name: 'mfa-sample' },
      { kind: 'the settings section', name: 'sampling' },
      { kind: 'the service data', name: 'sampleClient' },
    ];
    expect(namedConcepts("const SAMPLE = 'org.example.SampleService';", declared)).to.deep.equal(["names the service class 'SampleService'"]);
    expect(namedConcepts("if (type === 'org.jasig.SampleService' || isClass(type, 'SampleService')) {}", declared), 'in any package, or by its simple name').to.deep.equal(["names the service class 'SampleService'"]);
    expect(namedConcepts("const SAMPLES = 'org.example.SampleServices';", declared), 'another class').to.deep.equal([]);
    expect(namedConcepts("providers.includes(\"mfa-sample\")", declared)).to.deep.equal(["names the second-factor provider 'mfa-sample'"]);
    expect(namedConcepts('const on = config.sampling.enabled; const client = service.moduleData?.sampleClient;', declared)).to.deep.equal([
      "names the settings section 'sampling'",
      "names the service data 'sampleClient'",
    ]);
    expect(namedConcepts('// a SampleService is found by its own id; the `SampleService` class, `mfa-sample`', declared), 'prose').to.deep.equal([]);
    expect(moduleConcepts(MODULES, modules).filter(({ name }) => modules.includes(name)), "a module's own name is the module-name check's").to.deep.equal([]);
    // Not a module: a list of HttpModules walked, the module events consulted, a package whose name ends in a module's.
    expect(moduleMentions("const groups = modules.map((module) => module.routes); this.modules.of(event.type); import * as x509 from '@peculiar/x509';", modules)).to.deep.equal([]);
  });
});
