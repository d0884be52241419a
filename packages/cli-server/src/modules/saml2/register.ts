import { currentKey, keyInState, type SamlKeySet } from '@tessera/core/modules/saml2';
import { idpMetadataXml, saml2Module } from '@tessera/adapter-koa/modules/saml2';
import { key, KEYS } from '../../keys.js';
import type { ModuleRegistration } from '../module.js';
import type { saml2Sections } from './config.js';
import { loadSaml2Keys } from './key-file.js';

/** The key set, loaded (or made and written) once: as the node starts, never at a request. */
const KEY_SET = key<() => Promise<SamlKeySet>>('saml2: key set');
const KEYS_LOADED = key<SamlKeySet>('saml2: key set loaded at start');

/** The IdP's entity id: the setting, else the public URL and base path + `/idp`, as Apereo CAS names it. */
export function saml2EntityId(entityId: string | undefined, baseUrl: string): string {
  return entityId ?? `${baseUrl}/idp`;
}

/**
 * `saml2`: the IdP's key set (read, or made on first start) and its metadata at `/idp/metadata`. The
 * single sign-on and logout endpoints come with SAML service definitions (docs/modules/saml2.md).
 */
export const registerSaml2Module: ModuleRegistration<typeof saml2Sections> = (binder, { saml2: settings }, { server }) => {
  const baseUrl = `${server.publicUrl ?? ''}${server.basePath.replace(/\/+$/, '')}`;
  const entityId = saml2EntityId(settings.entityId, baseUrl);
  binder.resolved(KEY_SET, [KEYS.RandomSource], (random) => {
    let loaded: Promise<SamlKeySet> | undefined;
    return () => (loaded ??= loadSaml2Keys(settings, entityId, random));
  });
  // Loaded as the node starts: a bad key file stops the start, naming its setting.
  binder.resource(KEYS_LOADED, [KEY_SET], (keys) => keys(), () => undefined);
  binder.resolved(KEYS.HttpModule, [KEY_SET, KEYS.Clock, KEYS.RandomSource], (keys, clock, random) =>
    saml2Module({
      metadata: async () => {
        const set = await keys();
        const published = (use: SamlKeySet['signing']) => (['current', 'next', 'previous'] as const).flatMap((state) => keyInState(use, state) ?? []);
        return idpMetadataXml({
          entityId,
          baseUrl,
          signingKeys: published(set.signing),
          encryptionKeys: published(set.encryption),
          wantAuthnRequestsSigned: false,
          validSeconds: settings.metadataValidSeconds,
          now: clock.now(),
          ...(settings.signMetadata && {
            signWith: { credential: currentKey(set.signing), algorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256', id: `_${Buffer.from(random.bytes(20)).toString('hex')}` },
          }),
        });
      },
    }),
  );
};
