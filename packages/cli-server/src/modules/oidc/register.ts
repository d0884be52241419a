import type { TicketStep } from '@tessera/adapter-koa';
import {
  createOidcProvider,
  endLoginSession,
  loadProviderLibrary,
  oidcModule,
  OidcPages,
  OidcRelyingParties,
  type ProviderLibrary,
  type TesseraOidcProvider,
} from '@tessera/adapter-koa/modules/oidc';
import { authenticationMethodReferences } from '../../credential-kinds.js';
import { key, KEYS } from '../../keys.js';
import { LOGIN_BRANDING, LOGIN_COOKIE } from '../login/register.js';
import type { ModuleRegistration } from '../module.js';
import type { oidcSections } from './config.js';
import { loadOidcKeys } from './key-file.js';

/** The provider, made once node-oidc-provider has loaded: the composition stays synchronous, and only a serving node loads it. */
const PROVIDER = key<() => Promise<TesseraOidcProvider>>('oidc: provider');
const LOADED = key<TesseraOidcProvider>('oidc: provider loaded at start');
const PAGES = key<OidcPages>('oidc: pages');

/**
 * `oidc`: node-oidc-provider under `<basePath>/oidc` on the record stores, its clients the registry's
 * OidcRegisteredServices, its logins tessera's /login. The library is loaded here, when the module is
 * on. The login callback of an interaction stands for the client it logs in (a RelyingPartyResolver),
 * so /login decides over the client's own definition. A logout of the login session ends the provider
 * sessions of its TGT.
 */
export const registerOidcModule: ModuleRegistration<typeof oidcSections> = (binder, { oidc: settings }, { server, tickets: ticketSettings, credentialKinds }) => {
  const basePath = server.basePath.replace(/\/+$/, '');
  const issuer = `${server.publicUrl ?? ''}${basePath}/oidc`;
  binder.resolved(KEYS.RelyingPartyResolver, [KEYS.ServiceRegistry, KEYS.RecordStores], (registry, records) => new OidcRelyingParties(issuer, registry, records));
  // The browser login's ticket steps, known once the app is built (its HTTP module is told them).
  let ticketSteps: readonly TicketStep[] = [];
  binder.resolved(PAGES, [LOGIN_BRANDING], (branding) => new OidcPages(branding));
  binder.resolved(
    PROVIDER,
    [KEYS.ServiceRegistry, KEYS.TicketStore, KEYS.RecordStores, KEYS.Clock, KEYS.RandomSource, KEYS.EventSink, PAGES, LOGIN_COOKIE],
    (registry, tickets, records, clock, random, events, pages, cookie) => {
      const make = (library: ProviderLibrary) =>
        createOidcProvider({
        library,
        issuer,
        basePath,
        keys: loadOidcKeys(settings, random),
        registry,
        // The core is asked for at a request, not here: it is told of this provider's logouts (a cycle otherwise).
        core: () => binder.get(KEYS.CasCore),
        ticketStepsNeeded: async (ticket) => {
          for (const step of ticketSteps) if (await step.needed(ticket)) return true;
          return false;
        },
        tickets,
        records,
        clock,
        pages,
        trustProxy: server.trustProxy,
        customScopes: settings.scopes,
        fetchPrivateAddresses: settings.fetchPrivateAddresses,
        lifetimes: settings,
        loginSessionSeconds: ticketSettings.tgt.maxTimeToLiveSeconds,
        interactionsPerAddress: settings.interactionsPerAddress,
        events,
        endLoginSession: (ctx, tgtId) => endLoginSession(binder.get(KEYS.CasCore), cookie, basePath, server.publicUrl?.startsWith('https:') ?? false)(ctx, tgtId),
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
    oidcModule({
      oidc,
      pages,
      issuer,
      loginUrl: `${server.publicUrl ?? ''}${basePath}/login`,
      authenticationMethods: authenticationMethodReferences(credentialKinds),
      useTicketSteps: (steps) => {
        ticketSteps = steps;
      },
    }),
  );
};
