import { expect } from 'chai';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseJsonc } from 'jsonc-parser';
import { readServiceFiles, readServiceTemplates } from '@tessera/cli-server';
import { refusalReasons } from './apereo-corpus-reasons.js';

/**
 * Real Apereo CAS service files from public deployments (test/fixtures/apereo-services, README.md
 * there), read as `tessera services validate` reads them. EXPECTED.json records what each does today:
 * it loads, or it is refused with these problems, waiting for these features or fixes. A change in
 * what any file does fails here until the table is regenerated (UPDATE_EXPECTED=1), so it shows in review.
 */
const CORPUS = fileURLToPath(new URL('../fixtures/apereo-services/', import.meta.url));
const EXPECTED_FILE = join(CORPUS, 'EXPECTED.json');
const MANIFEST_FILE = join(CORPUS, 'MANIFEST.json');

type Outcome = { readonly outcome: 'load' } | { readonly outcome: 'refuse'; readonly problems: readonly string[]; readonly reasons: readonly string[] };
type Table = Record<string, Outcome>;
interface ManifestEntry {
  readonly file: string;
  readonly repository: string;
  readonly path: string;
  readonly license: string;
  readonly source: 'deployment' | 'default' | 'docs-example' | 'management-export';
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const expected = readJson<Table>(EXPECTED_FILE);
const manifest = readJson<ManifestEntry[]>(MANIFEST_FILE);

/** The service files of the corpus, as `owner__repo/name.json`. */
function corpusFiles(): string[] {
  return readdirSync(CORPUS, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.json') && path.includes('/'))
    .map((path) => path.split('\\').join('/'))
    .sort();
}

/** A file of a folder of service templates where it came from (CAS's templates directory), not of services. */
const isTemplate = (file: string): boolean => /(^|\/)templates\//.test(manifest.find((entry) => entry.file === file)?.path ?? '');

/** An OidcRegisteredService or OAuthRegisteredService definition (either package). */
function isProviderClientFile(file: string): boolean {
  const definition: unknown = parseJsonc(readFileSync(join(CORPUS, file), 'utf8'), [], { allowTrailingComma: true });
  const type = typeof definition === 'object' && definition !== null ? (definition as { '@class'?: unknown })['@class'] : undefined;
  return typeof type === 'string' && /\.(OidcRegisteredService|OAuthRegisteredService)$/.test(type);
}

/**
 * What tessera does with each file today, one file at a time: the reader of `services validate`, or
 * for a template the reader of serviceTemplatesDirectory (`services validate --templates`).
 */
async function outcomes(files: readonly string[]): Promise<Table> {
  const table: Table = {};
  for (const file of files) {
    const path = join(CORPUS, file);
    const problems = isTemplate(file) ? await templateProblems(path) : await serviceProblems(path);
    if (problems.length === 0) {
      table[file] = { outcome: 'load' };
      continue;
    }
    const definition: unknown = parseJsonc(readFileSync(path, 'utf8'), [], { allowTrailingComma: true });
    table[file] = { outcome: 'refuse', problems, reasons: refusalReasons(definition, problems) };
  }
  return table;
}

async function serviceProblems(path: string): Promise<string[]> {
  const [read] = await readServiceFiles([path]);
  if (!read) throw new Error(`${path}: nothing read`);
  return 'problems' in read ? [...read.problems] : [];
}

/** The problems of the template alone in a templates folder, the file name left out as for services. */
async function templateProblems(path: string): Promise<string[]> {
  const folder = mkdtempSync(join(tmpdir(), 'tessera-corpus-template-'));
  const copy = join(folder, basename(path));
  copyFileSync(path, copy);
  const read = await readServiceTemplates(folder);
  return read.problems.map((line) => (line.startsWith(`${copy}: `) ? line.slice(copy.length + 2) : line));
}

/** `N of M files load; refusals by reason: ...`, most frequent first, and how many files each alone holds back. */
function summary(table: Table): string {
  const entries = Object.values(table);
  const loaded = entries.filter((entry) => entry.outcome === 'load').length;
  const byReason = new Map<string, { files: number; alone: number }>();
  for (const entry of entries) {
    if (entry.outcome !== 'refuse') continue;
    for (const reason of entry.reasons) {
      const counts = byReason.get(reason) ?? { files: 0, alone: 0 };
      counts.files += 1;
      if (entry.reasons.length === 1) counts.alone += 1;
      byReason.set(reason, counts);
    }
  }
  const reasons = [...byReason].sort(([a, x], [b, y]) => y.files - x.files || y.alone - x.alone || a.localeCompare(b));
  return `${loaded} of ${entries.length} files load; refusals by reason: ${reasons.map(([reason, { files, alone }]) => `${reason} ${files} (${alone} alone)`).join('; ')}`;
}

const filesWaitingFor = (table: Table, reason: string): string[] => Object.keys(table).filter((file) => {
  const entry = table[file];
  return entry?.outcome === 'refuse' && entry.reasons.includes(reason);
});

describe('real Apereo CAS service files (test/fixtures/apereo-services)', function () {
  let actual: Table;

  before(async function () {
    this.timeout(60_000);
    actual = await outcomes(corpusFiles());
    if (process.env.UPDATE_EXPECTED === '1') {
      const sorted = Object.fromEntries(Object.keys(actual).sort().map((file) => [file, actual[file]]));
      writeFileSync(EXPECTED_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
      Object.assign(expected, sorted);
    }
  });

  after(() => {
    if (!actual) return;
    process.stdout.write(`      ${summary(actual)}\n`);
    const clients = Object.fromEntries(Object.entries(actual).filter(([file]) => isProviderClientFile(file)));
    process.stdout.write(`      OpenID Connect and OAuth clients: ${summary(clients)}\n`);
  });

  it('every file has its provenance in MANIFEST.json and its outcome in EXPECTED.json, and neither lists a file that is not there', () => {
    const files = corpusFiles();
    expect(files.length).to.be.greaterThan(0);
    expect(manifest.map((entry) => entry.file).sort()).to.deep.equal(files);
    expect(Object.keys(expected).sort()).to.deep.equal(files);
    for (const entry of manifest) {
      expect(entry.repository, entry.file).to.match(/^[\w.-]+\/[\w.-]+$/);
      expect(entry.license, entry.file).to.match(/^(Apache-2\.0|MIT|BSD-2-Clause|BSD-3-Clause|ISC|CC0-1\.0|Unlicense)$/);
      expect(['deployment', 'default', 'docs-example', 'management-export'], entry.file).to.include(entry.source);
    }
  });

  it('the files that load today still load', () => {
    const loading = Object.keys(expected).filter((file) => expected[file]?.outcome === 'load');
    expect(loading.filter((file) => actual[file]?.outcome !== 'load').map((file) => ({ file, now: actual[file] }))).to.deep.equal([]);
  });

  it('every file is loaded or refused exactly as EXPECTED.json records, and each refusal has a reason', () => {
    const changed = Object.keys(expected).filter((file) => JSON.stringify(actual[file]) !== JSON.stringify(expected[file]));
    expect(changed.map((file) => ({ file, expected: expected[file], now: actual[file] }))).to.deep.equal([]);
    const unexplained = Object.keys(actual).filter((file) => actual[file]?.outcome === 'refuse' && actual[file].reasons.length === 0);
    expect(unexplained).to.deep.equal([]);
  });

  // One test per planned feature or fix (and per reason a file cannot load here): implementing one
  // changes what its files do, and this test names them until EXPECTED.json is regenerated.
  const reasons = [...new Set(Object.values(expected).flatMap((entry) => (entry.outcome === 'refuse' ? entry.reasons : [])))].sort();
  for (const reason of reasons) {
    const files = filesWaitingFor(expected, reason);
    it(`refused, waiting for: ${reason} (${files.length} file${files.length === 1 ? '' : 's'})`, () => {
      const changed = files.filter((file) => JSON.stringify(actual[file]) !== JSON.stringify(expected[file]));
      expect(changed.map((file) => ({ file, expected: expected[file], now: actual[file] }))).to.deep.equal([]);
    });
  }

  it('the summary counts every file once, and a reason once per file it holds back', () => {
    const table: Table = {
      'a/one.json': { outcome: 'load' },
      'a/two.json': { outcome: 'refuse', problems: ['x: no'], reasons: ['empty name'] },
      'b/three.json': { outcome: 'refuse', problems: ['x: no', 'y: no'], reasons: ['empty name', 'expirationPolicy with a date'] },
    };
    expect(summary(table)).to.equal('1 of 3 files load; refusals by reason: empty name 2 (1 alone); expirationPolicy with a date 1 (0 alone)');
  });
});
