import { type RandomSource } from '@tessera/core';
import { encryptionKeyProblem, generateTokenKeys, signingKeyProblem, type TokenKeyPair, type TokenKeys } from '@tessera/core/modules/tokens';
import { readOrCreateKeyFile } from '../../config/key-file.js';
import type { TokensConfig } from './config.js';

/**
 * The keys of the tokens module: configured ones first, the rest from `tokens.keyFile`. Without a
 * key file, a fresh pair is written there (owner-only, never overwritten) so restarts and every node
 * sharing the file keep reading the tokens already issued.
 */
export function loadTokenKeys(config: TokensConfig, random: RandomSource): TokenKeys {
  const { signingKey, encryptionKey, encryptionAlgorithm } = config;
  if (signingKey !== undefined && encryptionKey !== undefined) return { signingKey, encryptionKey, encryptionAlgorithm };
  const stored = readOrCreateKeyFile<TokenKeyPair>({
    file: config.keyFile,
    setting: 'tokens.keyFile',
    read: (json) => readPair(json, encryptionAlgorithm),
    generate: () => generateTokenKeys(encryptionAlgorithm, random),
  });
  return { signingKey: signingKey ?? stored.signingKey, encryptionKey: encryptionKey ?? stored.encryptionKey, encryptionAlgorithm };
}

function readPair(json: unknown, algorithm: TokensConfig['encryptionAlgorithm']): TokenKeyPair | { problem: string } {
  if (typeof json !== 'object' || json === null) return { problem: 'is not JSON of the form {"signingKey": …, "encryptionKey": …}' };
  const { signingKey, encryptionKey } = json as Partial<Record<keyof TokenKeyPair, unknown>>;
  if (typeof signingKey !== 'string' || typeof encryptionKey !== 'string') return { problem: 'needs string values signingKey and encryptionKey' };
  const problem = signingKeyProblem(signingKey) ?? encryptionKeyProblem(encryptionKey, algorithm);
  return problem ? { problem: `holds a key that does not fit: ${problem}` } : { signingKey, encryptionKey };
}
