import { readFile } from 'node:fs/promises';
import { currentKey, keyInState, RecordPendingSamlLogins, RecordSamlRequestIdStore, RecordSamlSessionStore, type SamlKeySet, type SignatureAlgorithm } from '@tessera/core/modules/saml2';
import { idpMetadataXml, LogoutAnswerRefusal, SamlBackChannelLogout, saml2Module, SamlPages, SamlRelyingParties, SamlServiceProviders, SpMetadataResolver } from '@tessera/adapter-koa/modules/saml2';
import { key, KEYS } from '../../keys.js';
import type { ModuleRegistration } from '../module.js';
import type { saml2Sections } from './config.js';
import { httpsDownload } from './https-download.js';
import { loadSaml2Keys } from './key-file.js';

/** The key set, loaded (or made and written) once: as the node starts, never at a request. */
const KEY_SET = key<() => Promise<SamlKeySet>>('saml2: key set');
const KEYS_LOADED = key<SamlKeySet>('saml2: key set loaded at start');
const PROVIDERS = key<SamlServiceProviders>('saml2: service providers');
const PENDING = key<RecordPendingSamlLogins>('saml2: pending logins');

/** How long one fetch of an SP's metadata may take. */
const METADATA_DOWNLOAD_MS = 10_000;
/** How long an SP's SingleLogoutService has to answer a LogoutRequest. */
const LOGOUT_REQUEST_MS = 5_000;

/** The IdP's entity id: the setting, else the public URL and base path + `/idp`, as Apereo CAS names it. */
export function saml2EntityId(entityId: string | undefined, baseUrl: string): string {
  return entityId ?? `${baseUrl}/idp`;
}

/**
 * `saml2`: the IdP's key set (read, or made on first start), its metadata at `/idp/metadata`, and single
 * sign-on through /login: the registry's SamlRegisteredServices are its SPs (their metadata from their
 * definitions), and the login callback of a pending request stands for its SP (a RelyingPartyResolver),
 * so /login decides over the SP's own definition (docs/modules/saml2.md).
 */
export const registerSaml2Module: ModuleRegistration<typeof saml2Sections> = (binder, { saml2: settings }, { server }) => {
  const baseUrl = `${server.publicUrl ?? ''}${server.basePath.replace(/\/+$/, '')}`;
  const entityId = saml2EntityId(settings.entityId, baseUrl);
  // The setting's schema admits these algorithms only.
  const signatureAlgorithms = settings.signatureAlgorithms as SignatureAlgorithm[];
  binder.resolved(KEY_SET, [KEYS.RandomSource], (random) => {
    let loaded: Promise<SamlKeySet> | undefined;
    return () => (loaded ??= loadSaml2Keys(settings, entityId, random));
  });
  // Loaded as the node starts: a bad key file stops the start, naming its setting.
  binder.resource(KEYS_LOADED, [KEY_SET], (keys) => keys(), () => undefined);
  binder.resolved(PROVIDERS, [KEYS.ServiceRegistry, KEYS.Clock], (registry, clock) => {
    const download = httpsDownload({ timeoutMs: METADATA_DOWNLOAD_MS });
    const metadata = new SpMetadataResolver(
      { cacheSeconds: settings.metadataCacheSeconds, maxBytes: settings.maxMessageBytes * 16, signatureAlgorithms },
      { download, readFile: (path) => readFile(path, 'utf8'), now: () => clock.now() },
    );
    return new SamlServiceProviders(registry, metadata);
  });
  binder.resolved(PENDING, [KEYS.RecordStores, KEYS.RandomSource], (records, random) => new RecordPendingSamlLogins(records, random, settings.pendingPerAddress));
  // A login session that ends tells every SP that got an assertion within it, over the back channel.
  binder.resolved(KEYS.SessionListener, [KEY_SET, KEYS.Clock, KEYS.RandomSource, KEYS.RecordStores, PROVIDERS, KEYS.EventSink], (keys, clock, random, records, providers, events) => {
    const inbound = { maxMessageBytes: settings.maxMessageBytes, signatureAlgorithms, skewSeconds: settings.skewSeconds, maxAgeSeconds: settings.requestMaxAgeSeconds };
    // A page posting a LogoutResponse: the message in base64, and some HTML around it.
    const maxAnswerBytes = settings.maxMessageBytes * 2 + 16 * 1024;
    const logout = new SamlBackChannelLogout({
      entityId,
      baseUrl,
      settings: inbound,
      providers,
      sessions: new RecordSamlSessionStore(records),
      requestIds: new RecordSamlRequestIdStore(records),
      keys,
      clock,
      random,
      events,
      send: async (url, init) => {
        const response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(LOGOUT_REQUEST_MS) });
        const location = response.headers.get('location');
        return { status: response.status, ...(location !== null && { location }), body: await boundedText(response, maxAnswerBytes) };
      },
    });
    return { validated: () => Promise.resolve(), ended: (tgtId) => logout.ended(tgtId) };
  });
  binder.resolved(KEYS.RelyingPartyResolver, [PENDING, PROVIDERS], (pending, providers) => new SamlRelyingParties(baseUrl, pending, providers));
  binder.resolved(
    KEYS.HttpModule,
    [KEY_SET, KEYS.Clock, KEYS.RandomSource, KEYS.RecordStores, PROVIDERS, PENDING, KEYS.PageBranding, KEYS.BrowserSessions],
    (keys, clock, random, records, providers, pending, branding, browserSessions) => {
      const requestIds = new RecordSamlRequestIdStore(records);
      const sessions = new RecordSamlSessionStore(records);
      const pages = new SamlPages(branding);
      const inbound = { maxMessageBytes: settings.maxMessageBytes, signatureAlgorithms, skewSeconds: settings.skewSeconds, maxAgeSeconds: settings.requestMaxAgeSeconds };
      return saml2Module({
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
        sso: {
          entityId,
          baseUrl,
          loginUrl: `${baseUrl}/login`,
          settings: { ...inbound, assertionSeconds: settings.assertionSeconds, loginSeconds: settings.loginSeconds },
          providers,
          requestIds,
          pending,
          sessions,
          keys,
          pages,
          clock,
          random,
        },
        slo: { entityId, baseUrl, settings: inbound, providers, requestIds, sessions, browserSessions, keys, pages, clock, random },
      });
    },
  );
};

/** A response's body as text, read up to `maxBytes`: a larger one is refused, its rest not read. */
async function boundedText(response: Response, maxBytes: number): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.length;
    if (size > maxBytes) {
      await reader.cancel();
      throw new LogoutAnswerRefusal('invalid', `The answer is larger than ${maxBytes} bytes`);
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
