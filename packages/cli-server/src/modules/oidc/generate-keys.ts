import { readFileSync } from 'node:fs';
import { cryptoRandomSource } from '@tessera/core';
import { generateOidcKeySet, oidcKeySetProblem, type OidcKeySet } from '@tessera/core/modules/oidc';
import type { Output } from '../../cli/command.js';

/**
 * `tessera oidc generate-keys`: the oidc module's key set (RS256 signing keys, cookie secrets). With
 * `rotate`, the current key of that file stays published second, so what it signed still verifies; the
 * one before it is dropped. Returns the exit code.
 */
export function generateOidcKeys(rotate: string | undefined, out: Output, err: Output): number {
  let previous: OidcKeySet | undefined;
  if (rotate !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(rotate, 'utf8'));
    } catch (error) {
      err.write(`tessera oidc generate-keys: --rotate ${rotate}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'not a JSON key set'}\n`);
      return 2;
    }
    const problem = oidcKeySetProblem(parsed);
    if (problem) {
      err.write(`tessera oidc generate-keys: --rotate ${rotate}: ${problem}\n`);
      return 2;
    }
    previous = parsed as OidcKeySet;
  }
  out.write(`${JSON.stringify(generateOidcKeySet(cryptoRandomSource, previous), null, 2)}\n`);
  return 0;
}
