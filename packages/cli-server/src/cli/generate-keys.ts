import { CONTENT_ENCRYPTION_ALGORITHMS, cryptoRandomSource, generateTokenKeys, type ContentEncryptionAlgorithm } from '@tessera/core';

/**
 * `tessera keys generate`: a fresh key pair for the tokens module, printed as the key file's JSON
 * (redirect it into `tokens.keyFile`, or copy the values into `tokens.signingKey`/`tokens.encryptionKey`).
 * Returns the exit code.
 */
export function generateKeys(algorithm = 'A128CBC-HS256'): number {
  if (!isAlgorithm(algorithm)) {
    process.stderr.write(`tessera keys generate: --algorithm must be one of ${CONTENT_ENCRYPTION_ALGORITHMS.join(', ')}\n`);
    return 2;
  }
  process.stdout.write(`${JSON.stringify(generateTokenKeys(algorithm, cryptoRandomSource), null, 2)}\n`);
  return 0;
}

function isAlgorithm(name: string): name is ContentEncryptionAlgorithm {
  return (CONTENT_ENCRYPTION_ALGORITHMS as readonly string[]).includes(name);
}
