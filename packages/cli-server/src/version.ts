import { readFileSync } from 'node:fs';

/**
 * tessera's version, from this package's manifest (one level above both src/ and dist/): the
 * OpenAPI document's `info.version`.
 */
export const TESSERA_VERSION: string = readVersion();

function readVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const version = typeof manifest === 'object' && manifest !== null && 'version' in manifest ? manifest.version : undefined;
  if (typeof version !== 'string') throw new Error('package.json of @tessera/cli-server names no version');
  return version;
}
