import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MODULES } from '@tessera/cli-server';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HEADING = '## What it does, next to the servers it replaces';

/**
 * Rows every deployment makes true, whatever its modules: the central code behind each. A module's
 * rows are in its declaration (`comparisonRows`, packages/cli-server/src/modules/module.ts).
 */
const CENTRAL: Readonly<Record<string, string>> = {
  'Runs on': 'one Node process: packages/cli-server, the engines of package.json',
  'CAS browser login (`/login`) and validation (CAS 1, 2, 3)': "the validation endpoints, always on (adapter-koa's validation/); the login half is the login module's",
  'SAML 1.1 validation (`/samlValidate`)': "always on with the validation endpoints (adapter-koa's validation/)",
  'LDAP and Active Directory': 'the central authentication: `authentication.handlers: [ldap]`, packages/adapter-ldap',
  'Shared stores for several nodes': 'the storage adapters, `storage.type`: packages/adapter-redis, packages/adapter-mongo',
};

/** One row of a Markdown table: its first cell (what the row is about) and tessera's cell, as written. */
interface ComparisonRow {
  readonly row: string;
  readonly tessera: string;
}

/** The rows of README.md's comparison table, the first table after its heading. */
function comparisonRows(readme: string): ComparisonRow[] {
  const after = readme.slice(readme.indexOf(HEADING) + HEADING.length).split('\n');
  const table = after.slice(after.findIndex((line) => line.startsWith('|'))).filter((line, index, lines) => lines.slice(0, index + 1).every((earlier) => earlier.startsWith('|')));
  const [header, , ...body] = table.map((line) => line.slice(1, -1).split(' | ').map((cell) => cell.trim()));
  const column = header!.indexOf('tessera');
  if (column < 0) throw new Error('the comparison table has no tessera column');
  return body.map((cells) => ({ row: cells[0]!, tessera: cells[column]! }));
}

/** What is wrong between the table and what backs its tessera rows: one line each. */
function comparisonProblems(rows: readonly ComparisonRow[], backing: ReadonlyMap<string, readonly string[]>): string[] {
  const problems: string[] = [];
  const named = new Set(rows.map(({ row }) => row));
  for (const [row, by] of backing) if (!named.has(row)) problems.push(`"${row}" (named by ${by.join(', ')}) is no row of the table`);
  for (const { row, tessera } of rows) {
    const by = backing.get(row) ?? [];
    if (tessera.startsWith('not yet')) {
      if (by.length > 0) problems.push(`"${row}": the table says "not yet", but ${by.join(', ')} makes it true`);
    } else if (tessera === '') {
      problems.push(`"${row}": tessera's cell is empty: say what tessera does, or "not yet"`);
    } else if (by.length === 0) {
      problems.push(`"${row}": the table says "${tessera}", but no module declares the row (comparisonRows) and no central code is listed for it`);
    }
  }
  return problems;
}

describe("README.md's comparison table says of tessera what its modules and central code declare", () => {
  const rows = comparisonRows(readFileSync(join(ROOT, 'README.md'), 'utf8'));
  const backing = new Map<string, string[]>();
  const back = (row: string, by: string) => backing.set(row, [...(backing.get(row) ?? []), by]);
  for (const module of MODULES) for (const row of module.comparisonRows ?? []) back(row, `the ${module.name} module`);
  for (const row of Object.keys(CENTRAL)) back(row, 'central code');

  it('reads the table: a row for each capability, with what tessera says of it', () => {
    expect(rows.length).to.be.greaterThan(10);
    expect(rows.find(({ row }) => row === 'CAS proxy tickets')).to.deep.equal({ row: 'CAS proxy tickets', tessera: 'yes' });
  });

  it('every row tessera says yes to is made true by a module or central code, every "not yet" row by none, and every declared row is in the table', () => {
    expect(comparisonProblems(rows, backing)).to.deep.equal([]);
  });

  it('finds a "yes" nothing backs, a "not yet" a module makes true, and a declared row the table lacks', () => {
    const table = [
      { row: 'CAS proxy tickets', tessera: 'yes' },
      { row: 'WebAuthn', tessera: 'not yet' },
      { row: 'SAML 2 identity provider', tessera: 'yes' },
      { row: 'Consent', tessera: '' },
    ];
    const declared = new Map([
      ['CAS proxy tickets', ['the proxy module']],
      ['WebAuthn', ['the webauthn module']],
      ['Delegated authentication', ['the delegation module']],
    ]);
    expect(comparisonProblems(table, declared)).to.deep.equal([
      '"Delegated authentication" (named by the delegation module) is no row of the table',
      '"WebAuthn": the table says "not yet", but the webauthn module makes it true',
      '"SAML 2 identity provider": the table says "yes", but no module declares the row (comparisonRows) and no central code is listed for it',
      '"Consent": tessera\'s cell is empty: say what tessera does, or "not yet"',
    ]);
  });
});
