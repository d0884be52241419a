import { ticketPromptsNeeded, type CasCore, type LoginPrompt } from '@tessera/core';
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
  // The browser login's prompts, known once the app is built (its HTTP module is told them).
  let loginPrompts: readonly LoginPrompt[] = [];
  // The login module's look, and its session cookie, which an RP-initiated logout clears.
  binder.resolved(PAGES, [KEYS.PageBranding], (branding) => new OidcPages(branding));
  binder.resolved(
    PROVIDER,
    [KEYS.ServiceRegistry, KEYS.TicketStore, KEYS.RecordStores, KEYS.Clock, KEYS.RandomSource, KEYS.EventSink, PAGES, KEYS.BrowserSessions],
    (registry, tickets, records, clock, random, events, pages, sessions) => {
      let core: CasCore | undefined;
      const make = (library: ProviderLibrary) =>
        createOidcProvider({
        library,
        issuer,
        basePath,
        keys: loadOidcKeys(settings, random),
        registry,
        // The core is asked for at a request, not here: it is told of this provider's logouts (a cycle otherwise).
        // A singleton: found once, at the first request, not through the container at each of the several asks a request makes.
        core: () => (core ??= binder.get(KEYS.CasCore)),
        ticketStepsNeeded: (ticket) => ticketPromptsNeeded(loginPrompts, ticket),
        tickets,
        records,
        clock,
        pages,
        trustProxy: server.trustProxy,
        customScopes: settings.scopes,
        claimsMap: settings.claimsMap,
        fetchPrivateAddresses: settings.fetchPrivateAddresses,
        lifetimes: settings,
        loginSessionSeconds: ticketSettings.tgt.maxTimeToLiveSeconds,
        interactionsPerAddress: settings.interactionsPerAddress,
        events,
        browserSession: (ctx) => sessions.sessionOf(ctx),
        endLoginSession: (ctx, tgtId) => endLoginSession(binder.get(KEYS.CasCore), sessions)(ctx, tgtId),
        environment: process.env,
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
      useLoginPrompts: (prompts) => {
        loginPrompts = prompts;
      },
    }),
  );
};
