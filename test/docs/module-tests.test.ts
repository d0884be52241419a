import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { knownModuleNames } from '@tessera/cli-server';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Where a module's tests live (docs/adding-a-module.md §7): beside its code, in `modules/<name>/` of
 * the package's test folder (`packages/<package>/test/modules/<name>/`) or of the end-to-end tests
 * (`test/modules/<name>/`). A test file is a module's when it is named after the module (its own
 * name or a folder's, `otp.test.ts`, `saml2-metadata.test.ts`, `test/modules/oidc/`), or when a `.test.ts`
 * imports the code of that one module only; one that imports several modules' code is central.
 */

/** Test files outside a module folder that name or import one module all the same, each with its reason. */
const ALLOWED: Readonly<Record<string, string>> = {
  'test/docs/': "the docs' checks, about every module, which spell modules' paths in their own examples",
  'test/services/': 'service definitions (the `services` setting, service files, the Apereo corpus) are central, not the services module, whose part is registration over REST',
  'test/clients/': 'real clients (Apache modules, phpCAS, Perl, SAML 2 service providers) against the built server: one suite, on the servers .ci/run installs',
  'test/http/': 'the HTTP layer every route shares; a module only provides a route to reach',
  'test/openapi/': 'the OpenAPI document of every route',
  'packages/cli-server/test/services-directory.test.ts': 'the central `services` setting (a folder of service definitions), not the services module',
  'packages/core/test/refusals.test.ts': "core's refusal reasons across the use cases; registration is one of them",
  'packages/adapter-koa/test/module-service-keys.test.ts': "the central codec's handling of every module's service types and sections",
  'packages/adapter-memory/test/contracts.test.ts': "the adapter's run of every port's and every module's contract suite on its storage",
  'packages/adapter-mongo/test/fake-contracts.test.ts': "the adapter's run of every port's and every module's contract suite on its storage",
  'packages/adapter-redis/test/contracts.test.ts': "the adapter's run of every port's and every module's contract suite on its storage",
};

/**
 * Module test files still at their old places, from before tests lived beside their modules: they
 * move all at once, in one commit after the branches editing them are merged, which empties this
 * list. A file moved by hand leaves it; a new file never enters it.
 */
const AWAITING_MOVE: readonly string[] = [
  // move-tests: awaiting begin

  // move-tests: awaiting end
];

/** The folders holding tests: the end-to-end tests' and each package's. */
function testRoots(): string[] {
  return ['test', ...readdirSync(join(ROOT, 'packages')).map((name) => `packages/${name}/test`).filter((folder) => existsSync(join(ROOT, folder)))];
}

/** The TypeScript files of a test folder, by their path from the repository root; fixtures, builds and dependencies left out. */
function testFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return ['node_modules', 'dist', 'dist-test', 'fixtures'].includes(entry.name) ? [] : testFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The module a file or folder is named after: the module's name, or `<name>-…`. */
function namedModule(segment: string, modules: readonly string[]): string | undefined {
  const base = segment.replace(/(\.test)?\.ts$/, '');
  return [...modules].sort((a, b) => b.length - a.length).find((name) => base === name || base.startsWith(`${name}-`));
}

/** The modules whose code a file imports: `@tessera/<package>/modules/<name>`, `…/src/modules/<name>/…`. */
function importedModules(source: string, modules: readonly string[]): string[] {
  const found = new Set<string>();
  for (const [, specifier] of source.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
    const name = /(?:^@tessera\/[a-z-]+\/modules|\/src\/modules)\/([a-z0-9]+)(?:\/|$)/.exec(specifier!)?.[1];
    if (name !== undefined && modules.includes(name)) found.add(name);
  }
  return [...found];
}

/** Where a test file outside the module folders belongs, if it is a module's: the module and why, or undefined when it is central. */
function owningModule(path: string, source: string, modules: readonly string[]): { module: string; why: string } | undefined {
  const segments = path.replace(/^(packages\/[^/]+\/)?test\//, '').split('/');
  const byName = namedModule(segments.at(-1)!, modules) ?? segments.slice(0, -1).map((segment) => namedModule(segment, modules)).find((name) => name !== undefined);
  const imported = importedModules(source, modules);
  if (byName !== undefined) return { module: byName, why: imported.length > 0 && !imported.includes(byName) ? `is named after ${byName} and imports the code of ${imported.join(', ')}` : `is named after ${byName}` };
  if (imported.length === 1 && path.endsWith('.test.ts')) return { module: imported[0]!, why: `imports the code of ${imported[0]} only` };
  return undefined;
}

/** The test files that belong beside a module and are not, one line each. */
function misplaced(modules: readonly string[], allowed: (path: string) => boolean): string[] {
  return testRoots().flatMap((root) =>
    testFiles(root)
      .filter((path) => !path.startsWith(`${root}/modules/`) && !allowed(path))
      .flatMap((path) => {
        const owner = owningModule(path, readFileSync(join(ROOT, path), 'utf8'), modules);
        return owner ? [`${path} ${owner.why}: it belongs in ${root}/modules/${owner.module}/`] : [];
      }),
  );
}

const isAllowed = (path: string): boolean => Object.keys(ALLOWED).some((entry) => path === entry || (entry.endsWith('/') && path.startsWith(entry)));

describe("a module's tests live beside its code (docs/adding-a-module.md §7)", () => {
  const modules = knownModuleNames();

  it('every test file named after one module, or importing the code of one module only, is in that module\'s modules/<name>/ test folder', () => {
    expect(misplaced(modules, (path) => isAllowed(path) || AWAITING_MOVE.includes(path))).to.deep.equal([]);
  });

  it('the folders under modules/ are listed modules', () => {
    const strays = testRoots()
      .filter((root) => existsSync(join(ROOT, root, 'modules')))
      .flatMap((root) =>
        readdirSync(join(ROOT, root, 'modules'), { withFileTypes: true })
          .filter((entry) => entry.isDirectory() && !modules.includes(entry.name))
          .map((entry) => `${root}/modules/${entry.name}`),
      );
    expect(strays).to.deep.equal([]);
  });

  it('the allow-list and the files awaiting the move hold no stale entry: each names a file still there that the rule would otherwise refuse', () => {
    const flagged = new Set(misplaced(modules, () => false).map((line) => line.slice(0, line.indexOf(' '))));
    const staleAllowed = Object.keys(ALLOWED).filter((entry) => ![...flagged].some((path) => path === entry || (entry.endsWith('/') && path.startsWith(entry))));
    const staleAwaiting = AWAITING_MOVE.filter((path) => !flagged.has(path) || isAllowed(path));
    expect({ staleAllowed, staleAwaiting }).to.deep.equal({ staleAllowed: [], staleAwaiting: [] });
  });

  it('the rule itself: a file named after a module or importing one module only is that module\'s; one importing several is central', () => {
    const names = ['otp', 'oidc', 'login', 'saml2'];
    expect(owningModule('packages/core/test/modules/otp/otp.test.ts', '', names)).to.deep.equal({ module: 'otp', why: 'is named after otp' });
    expect(owningModule('packages/adapter-koa/test/modules/saml2/saml2-metadata.test.ts', "import { x } from '../src/modules/saml2/metadata.js';", names)?.module).to.equal('saml2');
    expect(owningModule('test/modules/oidc/discovery.test.ts', "import { y } from '../support/tessera.js';", names)?.module, 'by its folder').to.equal('oidc');
    expect(owningModule('packages/core/test/refusals.test.ts', "import { LoginFlow } from '@tessera/core/modules/login';", names)).to.deep.equal({ module: 'login', why: 'imports the code of login only' });
    expect(owningModule('packages/core/test/tickets.test.ts', "import { a } from '@tessera/core/modules/login';\nimport { b } from '@tessera/testkit/modules/otp';", names), 'several modules').to.equal(undefined);
    expect(owningModule('packages/core/test/harness.ts', "import { a } from '@tessera/core/modules/login';", names), 'a helper is placed by its name only').to.equal(undefined);
    expect(owningModule('packages/core/test/saml-validate.test.ts', '', names), 'SAML 1.1 is no module').to.equal(undefined);
    expect(owningModule('test/modules/rest/x.test.ts', "import { k } from '@tessera/core/modules/oidc';", ['rest', 'oidc'])?.why).to.equal('is named after rest and imports the code of oidc');
  });
});
