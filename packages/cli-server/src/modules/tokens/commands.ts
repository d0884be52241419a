import { CONTENT_ENCRYPTION_ALGORITHMS } from '@tessera/core/modules/tokens';
import type { ModuleCommand } from '../../cli/command.js';

/** The tokens module's command: its keys, made before any configuration holds them. */
export const tokensCommands: readonly ModuleCommand[] = [
  {
    name: 'generate-keys',
    aliases: ['keys generate'],
    listedAfter: 'hash-password',
    ownOptions: {
      algorithm: { type: 'string', usage: '--algorithm ENC', help: `content encryption of the tokens: ${CONTENT_ENCRYPTION_ALGORITHMS.join(', ')} (default A128CBC-HS256)` },
    },
    options: ['algorithm'],
    summary: 'print a fresh key pair for the tokens module (JSON)',
    description: `Prints {"signingKey", "encryptionKey"}: redirect it into the file tokens.keyFile names, or copy the values into
tokens.signingKey and tokens.encryptionKey. Every node of a cluster needs the same keys.`,
    run: async ({ values, out, err }) => (await import('./generate-keys.js')).generateKeys(values['algorithm'], out, err),
  },
];
