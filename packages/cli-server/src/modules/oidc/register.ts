import { CAS_REGISTERED_SERVICE, DENY_ALL_ATTRIBUTES, type RegisteredService } from '@tessera/core';
import {
  createOidcProvider,
  endLoginSession,
  loadProviderLibrary,
  loginCallbackPattern,
  oidcModule,
  OidcPages,
  type ProviderLibrary,
  type TesseraOidcProvider,
} from '@tessera/adapter-koa/modules/oidc';
import { key, KEYS } from '../../keys.js';
import { LOGIN_BRANDING, LOGIN_COOKIE } from '../login/register.js';
import type { ModuleRegistration } from '../module.js';
import type { oidcSections } from './config.js';
import { loadOidcKeys } from './key-file.js';

/** The provider, made once node-oidc-provider has loaded: the composition stays synchronous, and only a serving node loads it. */
const PROVIDER = key<() => Promise<TesseraOidcProvider>>('oidc: provider');
const LOADED = key<TesseraOidcProvider>('oidc: provider loaded at start');
const PAGES = key<OidcPages>('oidc: pages');

/** The id of the service the provider's login callback is: the largest safe one, out of the way of operators' ids. */
export const OIDC_CALLBACK_SERVICE_ID = Number.MAX_SAFE_INTEGER;

/** The provider's login callback as a CAS service, so /login grants it an ST like any other service's. */
export function oidcCallbackService(issuer: string): RegisteredService {
  return {
    id: OIDC_CALLBACK_SERVICE_ID,
    type: CAS_REGISTERED_SERVICE,
    name: 'tessera OpenID Connect login',
    description: 'The oidc module: logins of OpenID Connect clients come back here from /login.',
    serviceId: loginCallbackPattern(issuer),
    evaluationOrder: Number.MIN_SAFE_INTEGER,
    accessStrategy: { enabled: true, ssoEnabled: true, requiredAttributes: {} },
    attributeRelease: { type: DENY_ALL_ATTRIBUTES },
    properties: {},
  };
}

/**
 * `oidc`: node-oidc-provider under `<basePath>/oidc` on the record stores, its clients the registry's
 * OidcRegisteredServices, its logins tessera's /login. The library is loaded here, when the module is
 * on. The login callback is a service the registry answers from this declaration (KEYS.ModuleServices),
 * never written to the store. A logout of the login session ends the provider sessions of its TGT.
 */
export const registerOidcModule: ModuleRegistration<typeof oidcSections> = (binder, { oidc: settings }, { server }) => {
  const basePath = server.basePath.replace(/\/+$/, '');
  const issuer = `${server.publicUrl ?? ''}${basePath}/oidc`;

  binder.constant(KEYS.ModuleServices, [oidcCallbackService(issuer)]);
  binder.resolved(PAGES, [LOGIN_BRANDING], (branding) => new OidcPages(branding));
  binder.resolved(
    PROVIDER,
    [KEYS.ServiceRegistry, KEYS.ServicePolicies, KEYS.TicketStore, KEYS.RecordStores, KEYS.Clock, KEYS.RandomSource, KEYS.EventSink, PAGES, LOGIN_COOKIE],
    (registry, policies, tickets, records, clock, random, events, pages, cookie) => {
      const make = (library: ProviderLibrary) =>
        createOidcProvider({
        library,
        issuer,
        mountPath: `${basePath}/oidc`,
        keys: loadOidcKeys(settings, random),
        registry,
        policies,
        tickets,
        records,
        clock,
        pages,
        trustProxy: server.trustProxy,
        customScopes: settings.scopes,
        claimsMap: settings.claimsMap,
        fetchPrivateAddresses: settings.fetchPrivateAddresses,
        lifetimes: settings,
        events,
        // The core is asked for at the logout, not here: it is told of logouts by this provider (a cycle otherwise).
        endLoginSession: (ctx) => endLoginSession(binder.get(KEYS.CasCore), cookie, basePath, server.publicUrl?.startsWith('https:') ?? false)(ctx),
      });
      let loaded: Promise<TesseraOidcProvider> | undefined;
      return () => (loaded ??= loadProviderLibrary().then(make));
    },
  );
  // Loaded as the node starts (the library's warnings then), not at its first request.
  binder.resource(LOADED, [PROVIDER], (oidc) => oidc(), () => undefined);
  binder.resolved(KEYS.SessionListener, [PROVIDER], (oidc) => ({
    validated: () => Promise.resolve(),
    ended: async (tgtId) => (await oidc()).endSessionsOf(tgtId),
  }));
  binder.resolved(KEYS.HttpModule, [PROVIDER, PAGES], (oidc, pages) =>
    oidcModule({ oidc, pages, issuer, loginUrl: `${server.publicUrl ?? ''}${basePath}/login` }),
  );
};
