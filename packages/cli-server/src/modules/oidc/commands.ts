import type { ModuleCommand } from '../../cli/command.js';

/** The oidc module's command: its key set, made before any configuration holds it. */
export const oidcCommands: readonly ModuleCommand[] = [
  {
    name: 'oidc generate-keys',
    listedAfter: 'generate-keys',
    ownOptions: {
      rotate: { type: 'string', usage: '--rotate FILE', help: "a new key set that keeps FILE's current signing key and cookie secret as the previous ones" },
    },
    options: ['rotate'],
    summary: 'print a fresh key set for the oidc module (JSON)',
    description: `Prints {"keys", "cookieSecrets"}: redirect it into the file oidc.keyFile names, or give it whole in oidc.keys.
--rotate FILE keeps the current key of FILE published as the previous one, so tokens signed before still verify.
Every node of a cluster needs the same keys.`,
    run: async ({ values, out, err }) => (await import('./generate-keys.js')).generateOidcKeys(values['rotate'], out, err),
  },
];
