import { type RandomSource } from '@tessera/core';
import { generateLoginSecret, loginSecretProblem } from '@tessera/core/modules/login';
import { readOrCreateKeyFile } from '../../config/key-file.js';
import type { LoginConfig } from './config.js';

/** The login module's secret: `login.key`, else the one in `login.keyFile` (written with a fresh one on first start). */
export function loadLoginSecret(config: Pick<LoginConfig, 'key' | 'keyFile'>, random: RandomSource): string {
  if (config.key !== undefined) return config.key;
  return readOrCreateKeyFile<{ secret: string }>({
    file: config.keyFile,
    setting: 'login.keyFile',
    read(json) {
      const secret = typeof json === 'object' && json !== null ? (json as { secret?: unknown }).secret : undefined;
      if (typeof secret !== 'string') return { problem: 'is not JSON of the form {"secret": …}' };
      const problem = loginSecretProblem(secret);
      return problem ? { problem: `holds a secret that does not fit: ${problem}` } : { secret };
    },
    generate: () => ({ secret: generateLoginSecret(random) }),
  }).secret;
}
