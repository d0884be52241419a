import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MODULES } from '@tessera/cli-server';
import type { TesseraModule } from '@tessera/cli-server';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (page: string): string => readFileSync(join(ROOT, page), 'utf8');

/** The lines of the Markdown table that starts with `header`, its header and separator left out. */
function tableRows(page: string, header: string): string[] {
  const start = page.indexOf(header);
  if (start < 0) throw new Error(`no table starting "${header}"`);
  const lines = page.slice(start).split('\n');
  const end = lines.findIndex((line) => !line.startsWith('|'));
  return lines.slice(2, end < 0 ? undefined : end);
}

/** The cells of a table row, as written. */
const cells = (row: string): string[] => row.slice(1, -1).split(' | ').map((cell) => cell.trim());

/** The names written in backticks in `text`, in order. */
const backticked = (text: string): string[] => [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);

/** What docs/modules.md's row for a module says of its declaration, as the declaration would have it said. */
interface ModuleRowFacts {
  readonly name: string;
  readonly dependencies: readonly string[];
  readonly onInDemo: boolean;
}

/** Reads docs/modules.md's row: "| `tokens` (needs `rest`) | … ; on in demo mode |". */
function modulesPageRow(row: string): ModuleRowFacts {
  const [first, adds] = cells(row);
  const [name, ...dependencies] = backticked(first!);
  return { name: name!, dependencies, onInDemo: /\bon in demo mode\b/.test(adds!) };
}

function declaredRow(module: TesseraModule): ModuleRowFacts {
  return { name: module.name, dependencies: module.dependencies, onInDemo: module.onInDemo === true };
}

/** The module names among `words`, in order. */
const moduleNamesIn = (text: string, names: readonly string[]): string[] => [...text.matchAll(/[a-z0-9]+/g)].map((match) => match[0]).filter((word) => names.includes(word));

/** The modules that have a folder in a package's src/modules. */
const withFolderIn = (pkg: string): string[] => MODULES.map((module) => module.name).filter((name) => existsSync(join(ROOT, 'packages', pkg, 'src/modules', name)));

describe('the module tables of the docs say what the module declarations say', () => {
  const names = MODULES.map((module) => module.name);

  describe('docs/modules.md', () => {
    const page = read('docs/modules.md');

    it('its table has a row per module, in list order, naming the modules each needs and whether demo mode switches it on', () => {
      expect(tableRows(page, '| Module | Adds |').map(modulesPageRow)).to.deep.equal(MODULES.map(declaredRow));
    });

    it('the default it gives for `modules` is the modules on by default', () => {
      const written = /switched on by name in `modules` \(default `\[([^\]]*)\]`\)/.exec(page)?.[1];
      expect(written?.split(',').map((name) => name.trim())).to.deep.equal(MODULES.filter((module) => module.onByDefault === true).map((module) => module.name));
    });

    it('the modules it says need another module are those that declare a dependency', () => {
      const sentence = /only ([^.]*?) needs? another module/.exec(page)?.[1] ?? '';
      expect(backticked(sentence)).to.deep.equal(MODULES.filter((module) => module.dependencies.length > 0).map((module) => module.name));
    });
  });

  describe('docs/architecture.md', () => {
    const page = read('docs/architecture.md');

    it("the table of the modules' parts has a row per module, in list order, its cli-server cell naming the module's settings sections", () => {
      const rows = tableRows(page, '| Module | core | adapter-koa | cli-server `modules/<name>/` |').map(cells);
      expect(rows.map(([module]) => backticked(module!)[0])).to.deep.equal(names);
      const sections = rows.map(([module, , , cliServer]) => ({ module: backticked(module!)[0], sections: [...cliServer!.matchAll(/\bsettings ((?:`[a-z0-9]+`(?:,? (?:and )?)?)+)/g)].flatMap((match) => backticked(match[1]!)) }));
      expect(sections).to.deep.equal(MODULES.map((module) => ({ module: module.name, sections: Object.keys(module.sections) })));
    });

    it('the packages table names, for core and adapter-koa, the modules that have a folder there', () => {
      const packages = tableRows(page, '| Package |').map(cells);
      const core = packages.find(([pkg]) => pkg === '`packages/core`')![1]!;
      const coreList = /`src\/modules\/<name>\/`: each module's logic and its own ports \(([^)]*)\)/.exec(core)?.[1] ?? '';
      expect(backticked(coreList).filter((name) => names.includes(name)).sort()).to.deep.equal(withFolderIn('core').sort());
      const koa = packages.find(([pkg]) => pkg === '`packages/adapter-koa`')![1]!;
      const koaList = /\(`modules\/<name>\/`: ([^;]*?), each a subpath/.exec(koa)?.[1] ?? '';
      expect(moduleNamesIn(koaList, names).sort()).to.deep.equal(withFolderIn('adapter-koa').sort());
    });
  });

  it("docs/adding-a-module.md's opening names every module, in list order", () => {
    const opening = /switched on by name in the `modules` setting: ([^]*?) today\./.exec(read('docs/adding-a-module.md'))?.[1] ?? '';
    expect(backticked(opening)).to.deep.equal(names);
  });

  it('reads a row of docs/modules.md as its declaration would have it', () => {
    expect(modulesPageRow('| `consent` (needs `login`) | users agree to the release of their attributes |')).to.deep.equal({ name: 'consent', dependencies: ['login'], onInDemo: false });
    expect(modulesPageRow('| `proxy` | proxy tickets; on in demo mode |')).to.deep.equal({ name: 'proxy', dependencies: [], onInDemo: true });
    expect(modulesPageRow('| `delegation` (needs `login`, `throttle`) | logins elsewhere |').dependencies).to.deep.equal(['login', 'throttle']);
  });
});
