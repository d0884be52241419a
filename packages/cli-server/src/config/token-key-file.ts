import { readFileSync, writeFileSync } from 'node:fs';
import { encryptionKeyProblem, generateTokenKeys, signingKeyProblem, type RandomSource, type TokenKeyPair, type TokenKeys } from '@tessera/core';
import { configurationError } from './errors.js';
import type { TokensConfig } from './tokens.js';

/**
 * The keys of the tokens module: configured ones first, the rest from `tokens.keyFile`. Without a
 * key file, a fresh pair is written there (owner-only, never overwritten) so restarts and every node
 * sharing the file keep reading the tokens already issued.
 */
export function loadTokenKeys(config: TokensConfig, random: RandomSource): TokenKeys {
  const { signingKey, encryptionKey, encryptionAlgorithm } = config;
  if (signingKey !== undefined && encryptionKey !== undefined) return { signingKey, encryptionKey, encryptionAlgorithm };
  const stored = readKeyFile(config) ?? createKeyFile(config, random);
  return { signingKey: signingKey ?? stored.signingKey, encryptionKey: encryptionKey ?? stored.encryptionKey, encryptionAlgorithm };
}

function readKeyFile({ keyFile, encryptionAlgorithm }: TokensConfig): TokenKeyPair | undefined {
  let text: string;
  try {
    text = readFileSync(keyFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw keyFileError(keyFile, `cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw keyFileError(keyFile, 'is not JSON of the form {"signingKey": …, "encryptionKey": …}');
  }
  const { signingKey, encryptionKey } = (parsed ?? {}) as Partial<Record<keyof TokenKeyPair, unknown>>;
  if (typeof signingKey !== 'string' || typeof encryptionKey !== 'string') {
    throw keyFileError(keyFile, 'needs string values signingKey and encryptionKey');
  }
  const problem = signingKeyProblem(signingKey) ?? encryptionKeyProblem(encryptionKey, encryptionAlgorithm);
  if (problem) throw keyFileError(keyFile, `holds a key that does not fit: ${problem}`);
  return { signingKey, encryptionKey };
}

function createKeyFile(config: TokensConfig, random: RandomSource): TokenKeyPair {
  const pair = generateTokenKeys(config.encryptionAlgorithm, random);
  try {
    // `wx`: a node starting at the same moment may have written it first; then its keys win.
    writeFileSync(config.keyFile, `${JSON.stringify(pair, null, 2)}\n`, { flag: 'wx', mode: 0o600 });
    return pair;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const written = code === 'EEXIST' ? readKeyFile(config) : undefined;
    if (written) return written;
    throw keyFileError(config.keyFile, `cannot write it (${code ?? String(error)})`);
  }
}

function keyFileError(file: string, problem: string) {
  return configurationError([{ setting: 'tokens.keyFile', problem: `${file} ${problem}` }]);
}
