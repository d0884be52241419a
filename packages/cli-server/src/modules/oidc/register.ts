import { CAS_REGISTERED_SERVICE, type ServiceDefinition } from '@tessera/core';
import { createOidcProvider, endLoginSession, loginCallbackPattern, oidcModule, OidcPages } from '@tessera/adapter-koa/modules/oidc';
import { key, KEYS } from '../../keys.js';
import { LOGIN_BRANDING, LOGIN_COOKIE } from '../login/register.js';
import type { ModuleRegistration } from '../module.js';
import type { oidcSections } from './config.js';
import { loadOidcKeys } from './key-file.js';

const CALLBACK_SERVICE = key<ServiceDefinition>('oidc: login callback service');

/** The id of the service the provider's login callback is: the largest safe one, out of the way of operators' ids. */
export const OIDC_CALLBACK_SERVICE_ID = Number.MAX_SAFE_INTEGER;

/**
 * `oidc`: node-oidc-provider under `<basePath>/oidc` on the record stores, its clients the registry's
 * OidcRegisteredServices, its logins tessera's /login: the provider's login callback is registered as
 * a service at start, so /login grants it an ST like any other service's.
 */
export const registerOidcModule: ModuleRegistration<typeof oidcSections> = (binder, { oidc: settings }, { server }) => {
  const basePath = server.basePath.replace(/\/+$/, '');
  const issuer = `${server.publicUrl ?? ''}${basePath}/oidc`;

  binder.resource(
    CALLBACK_SERVICE,
    [KEYS.ServiceRegistry],
    async (registry) => {
      const service: ServiceDefinition = {
        id: OIDC_CALLBACK_SERVICE_ID,
        type: CAS_REGISTERED_SERVICE,
        name: 'tessera OpenID Connect login',
        description: 'The oidc module: logins of OpenID Connect clients come back here from /login.',
        serviceId: loginCallbackPattern(issuer),
        evaluationOrder: Number.MIN_SAFE_INTEGER,
        accessStrategy: { enabled: true, ssoEnabled: true, requiredAttributes: {} },
        attributeRelease: { kind: 'none' },
        properties: {},
      };
      await registry.save({ ...service, id: OIDC_CALLBACK_SERVICE_ID });
      return service;
    },
    () => undefined,
  );

  binder.resolved(
    KEYS.HttpModule,
    [KEYS.CasCore, KEYS.ServiceRegistry, KEYS.TicketStore, KEYS.RecordStores, KEYS.Clock, KEYS.RandomSource, KEYS.EventSink, LOGIN_COOKIE, LOGIN_BRANDING],
    (core, registry, tickets, records, clock, random, events, cookie, branding) => {
      const pages = new OidcPages(branding);
      const oidc = createOidcProvider({
        issuer,
        mountPath: `${basePath}/oidc`,
        keys: loadOidcKeys(settings, random),
        registry,
        tickets,
        records,
        clock,
        pages,
        trustProxy: server.trustProxy,
        customScopes: settings.scopes,
        lifetimes: settings,
        events,
        endLoginSession: endLoginSession(core, cookie, basePath, server.publicUrl?.startsWith('https:') ?? false),
      });
      return oidcModule({ oidc, pages, issuer, loginUrl: `${server.publicUrl ?? ''}${basePath}/login` });
    },
  );
};
