import type { ModuleCommand } from '../../cli/command.js';

/** The saml2 module's command: its key set, made before any configuration holds it. */
export const saml2Commands: readonly ModuleCommand[] = [
  {
    name: 'saml2 generate-keys',
    listedAfter: 'oidc generate-keys',
    ownOptions: {
      rollover: { type: 'string', usage: '--rollover FILE', help: "the next step of rolling over FILE's keys: publish new keys beside the current ones, or make them current" },
      'entity-id': { type: 'string', usage: '--entity-id URL', help: "the IdP's entity id, named in the certificates" },
    },
    options: ['rollover', 'entity-id'],
    summary: 'print a fresh key set for the saml2 module (JSON)',
    description: `Prints {"signing", "encryption", "persistentIdSalt"}: RSA keys with self-signed certificates. Redirect it into the file saml2.keyFile names, or give it whole in saml2.keys.
--rollover FILE takes a key rollover one step: first new keys are published in the metadata beside the current ones;
run it again, once every SP has fetched the metadata, and they sign, the former ones still published.
Every node of a cluster needs the same keys.`,
    run: async ({ values, out, err }) => {
      const [{ generateSaml2Keys }, { cryptoRandomSource }] = await Promise.all([import('./generate-keys.js'), import('@tessera/core')]);
      return generateSaml2Keys(values['rollover'], values['entity-id'], cryptoRandomSource, out, err);
    },
  },
];
