import { readFileSync } from 'node:fs';
import { cryptoRandomSource } from '@tessera/core';
import { generateOidcKeySet, oidcKeySetProblem, type OidcKeySet } from '@tessera/core/modules/oidc';
import { CONTENT_ENCRYPTION_ALGORITHMS, generateTokenKeys, type ContentEncryptionAlgorithm } from '@tessera/core/modules/tokens';
import type { OptionValues } from './commands.js';
import type { Output } from './configuration.js';

/**
 * `tessera generate-keys`: a fresh key pair for the tokens module, printed as the key file's JSON
 * (redirect it into `tokens.keyFile`, or copy the values into `tokens.signingKey`/`tokens.encryptionKey`).
 * Returns the exit code.
 */
export function generateKeys({ algorithm, set = 'tokens', rotate }: OptionValues, out: Output, err: Output): number {
  if (set === 'oidc') return generateOidcKeys(algorithm, rotate, out, err);
  if (set !== 'tokens') {
    err.write('tessera generate-keys: --set must be tokens or oidc\n');
    return 2;
  }
  if (rotate !== undefined) {
    err.write('tessera generate-keys: --rotate goes with --set oidc\n');
    return 2;
  }
  const chosen = algorithm ?? 'A128CBC-HS256';
  if (!isAlgorithm(chosen)) {
    err.write(`tessera generate-keys: --algorithm must be one of ${CONTENT_ENCRYPTION_ALGORITHMS.join(', ')}\n`);
    return 2;
  }
  out.write(`${JSON.stringify(generateTokenKeys(chosen, cryptoRandomSource), null, 2)}\n`);
  return 0;
}

/**
 * The oidc module's key set (RS256 signing keys, cookie secrets). With `rotate`, the current key of
 * that file stays published second, so what it signed still verifies; the one before it is dropped.
 */
function generateOidcKeys(algorithm: string | undefined, rotate: string | undefined, out: Output, err: Output): number {
  if (algorithm !== undefined) {
    err.write('tessera generate-keys: --algorithm is for the tokens module; the oidc module signs with RS256\n');
    return 2;
  }
  let previous: OidcKeySet | undefined;
  if (rotate !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(rotate, 'utf8'));
    } catch (error) {
      err.write(`tessera generate-keys: --rotate ${rotate}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'not a JSON key set'}\n`);
      return 2;
    }
    const problem = oidcKeySetProblem(parsed);
    if (problem) {
      err.write(`tessera generate-keys: --rotate ${rotate}: ${problem}\n`);
      return 2;
    }
    previous = parsed as OidcKeySet;
  }
  out.write(`${JSON.stringify(generateOidcKeySet(cryptoRandomSource, previous), null, 2)}\n`);
  return 0;
}

function isAlgorithm(name: string): name is ContentEncryptionAlgorithm {
  return (CONTENT_ENCRYPTION_ALGORITHMS as readonly string[]).includes(name);
}
