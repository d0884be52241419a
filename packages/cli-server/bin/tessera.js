#!/usr/bin/env node
// The installed `tessera` command. It exists before the first build, so installing links it
// without a warning; it runs the compiled CLI that `tsc -b` writes to dist/.
import { existsSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';

const main = new URL('../dist/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('tessera: not built yet; run `npx --yes pnpm@10.34.8 build` first\n');
  process.exit(1);
}
await import(main.href);
