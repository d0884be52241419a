#!/usr/bin/env node
// Writes the configuration reference, generated from the config schema, between the markers in
// docs/configuration.md. With --check it only compares, and exits 1 when the page is stale.
//   node scripts/config-reference.mjs [--check]
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

// The schema is TypeScript and imports sibling packages by name: run again under tsx, with the
// `source` export condition that loads them from src (no build needed).
if (!process.execArgv.includes('--conditions=source')) {
  const rerun = spawnSync(process.execPath, ['--conditions=source', '--import=tsx', fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    cwd: root,
    stdio: 'inherit',
  });
  process.exit(rerun.status ?? 1);
}

const { REFERENCE_PAGE, withConfigReference } = await import('../packages/cli-server/src/config/reference.ts');
const pagePath = new URL(`../${REFERENCE_PAGE}`, import.meta.url);
const page = readFileSync(pagePath, 'utf8');
const updated = withConfigReference(page);

if (process.argv.includes('--check')) {
  if (updated !== page) {
    process.stderr.write(`${REFERENCE_PAGE}: the configuration reference is stale; run node scripts/config-reference.mjs\n`);
    process.exit(1);
  }
  process.stdout.write(`${REFERENCE_PAGE}: the configuration reference is up to date\n`);
} else {
  writeFileSync(pagePath, updated);
  process.stdout.write(updated === page ? `${REFERENCE_PAGE}: already up to date\n` : `${REFERENCE_PAGE}: configuration reference updated\n`);
}
