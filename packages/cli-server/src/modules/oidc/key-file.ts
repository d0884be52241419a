import type { RandomSource } from '@tessera/core';
import { generateOidcKeySet, oidcKeySetProblem, type OidcKeySet } from '@tessera/core/modules/oidc';
import { readOrCreateKeyFile } from '../../config/key-file.js';
import type { OidcConfig } from './config.js';

/** The key set: `oidc.keys`, else the one in `oidc.keyFile` (written with a fresh one on first start). */
export function loadOidcKeys(config: Pick<OidcConfig, 'keys' | 'keyFile'>, random: RandomSource): OidcKeySet {
  if (config.keys !== undefined) return JSON.parse(config.keys) as OidcKeySet;
  return readOrCreateKeyFile<OidcKeySet>({
    file: config.keyFile,
    setting: 'oidc.keyFile',
    read(json) {
      const problem = oidcKeySetProblem(json);
      return problem ? { problem } : (json as OidcKeySet);
    },
    generate: () => generateOidcKeySet(random),
  });
}
