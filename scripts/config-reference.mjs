#!/usr/bin/env node
// Writes the configuration reference, generated from the config schema, between the markers in
// README.md. With --check it only compares, and exits 1 when README.md is stale.
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

const { withConfigReference } = await import('../packages/cli-server/src/config/reference.ts');
const readmePath = new URL('../README.md', import.meta.url);
const readme = readFileSync(readmePath, 'utf8');
const updated = withConfigReference(readme);

if (process.argv.includes('--check')) {
  if (updated !== readme) {
    process.stderr.write('README.md: the configuration reference is stale; run node scripts/config-reference.mjs\n');
    process.exit(1);
  }
  process.stdout.write('README.md: the configuration reference is up to date\n');
} else {
  writeFileSync(readmePath, updated);
  process.stdout.write(updated === readme ? 'README.md: already up to date\n' : 'README.md: configuration reference updated\n');
}
