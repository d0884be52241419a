import { existsSync } from 'node:fs';
import type { RandomSource } from '@tessera/core';
import { samlKeySetProblem, type SamlKeySet } from '@tessera/core/modules/saml2';
import { readOrCreateKeyFile } from '../../config/key-file.js';
import type { Saml2Config } from './config.js';
import { generateSamlKeySet } from './generate-keys.js';

/**
 * The key set: `saml2.keys`, else the one in `saml2.keyFile`, written with a fresh one (made
 * asynchronously: certificates are signed through WebCrypto) when the file is missing.
 */
export async function loadSaml2Keys(config: Pick<Saml2Config, 'keys' | 'keyFile'>, entityId: string, random: RandomSource): Promise<SamlKeySet> {
  if (config.keys !== undefined) return JSON.parse(config.keys) as SamlKeySet;
  const fresh = existsSync(config.keyFile) ? undefined : await generateSamlKeySet(entityId, random);
  return readOrCreateKeyFile<SamlKeySet>({
    file: config.keyFile,
    setting: 'saml2.keyFile',
    read(json) {
      const problem = samlKeySetProblem(json);
      return problem ? { problem } : (json as SamlKeySet);
    },
    generate: () => {
      // Only reached when the file was missing a moment ago: `fresh` was made then.
      if (fresh === undefined) throw new Error(`${config.keyFile} disappeared while it was read`);
      return fresh;
    },
  });
}
