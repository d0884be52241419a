import { cryptoRandomSource } from '@tessera/core';
import { CONTENT_ENCRYPTION_ALGORITHMS, generateTokenKeys, type ContentEncryptionAlgorithm } from '@tessera/core/modules/tokens';
import type { Output } from '../../cli/command.js';

/**
 * `tessera generate-keys`: a fresh key pair for the tokens module, printed as the key file's JSON
 * (redirect it into `tokens.keyFile`, or copy the values into `tokens.signingKey`/`tokens.encryptionKey`).
 * Returns the exit code.
 */
export function generateKeys(algorithm: string | undefined, out: Output, err: Output): number {
  const chosen = algorithm ?? 'A128CBC-HS256';
  if (!isAlgorithm(chosen)) {
    err.write(`tessera generate-keys: --algorithm must be one of ${CONTENT_ENCRYPTION_ALGORITHMS.join(', ')}\n`);
    return 2;
  }
  out.write(`${JSON.stringify(generateTokenKeys(chosen, cryptoRandomSource), null, 2)}\n`);
  return 0;
}

function isAlgorithm(name: string): name is ContentEncryptionAlgorithm {
  return (CONTENT_ENCRYPTION_ALGORITHMS as readonly string[]).includes(name);
}
