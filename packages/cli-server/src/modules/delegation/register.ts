import { DELEGATION_SAML2_PATH, delegatedExtractor, delegationCookie, delegationModule } from '@tessera/adapter-koa/modules/delegation';
import type { Clock } from '@tessera/core';
import { DelegatedAuthenticationRule, DelegatedLogin, DelegationRecords, UpstreamLogout, type DelegationProvider, type UpstreamProvider } from '@tessera/core/modules/delegation';
import { key, KEYS } from '../../keys.js';
import type { ModuleRegistration } from '../module.js';
import { CasUpstream } from './cas-upstream.js';
import type { delegationSections, UpstreamProviderSettings } from './config.js';
import { OAuth2Upstream } from './oauth2-upstream.js';
import { OidcUpstream } from './oidc-upstream.js';
import { Saml2Upstream } from './saml2-upstream.js';

const PROVIDERS = key<ReadonlyMap<string, DelegationProvider>>('delegation: providers');
const RECORDS = key<DelegationRecords>('delegation: records');
const LOGIN = key<DelegatedLogin>('delegation: delegated login');
const LOGOUT = key<UpstreamLogout>('delegation: upstream logout');

/**
 * `delegation`: the upstream providers (openid-client for OpenID providers, CAS 3 validation for CAS
 * servers, node-saml for SAML 2 identity providers), the logins waiting upstream and the proofs of those back in the module's own record
 * namespaces, the handler and extractor of the proof the login form is posted with, the upstreams'
 * logout after tessera's (a session listener keeping what it needs with each session), and the HTTP
 * part (the login page's buttons, the routes leaving for and coming back from upstream, a SAML 2
 * provider's SP metadata, its say after /logout).
 */
export const registerDelegationModule: ModuleRegistration<typeof delegationSections> = (binder, { delegation }, { server }) => {
  const baseUrl = `${server.publicUrl ?? ''}${server.basePath.replace(/\/+$/, '')}`;
  const buttons = delegation.providers.map(({ id, title, logoUrl }) => ({ id, title, ...(logoUrl !== undefined && { logoUrl }) }));
  binder.resolved(PROVIDERS, [KEYS.Clock], (clock) => new Map(delegation.providers.map((provider) => [provider.id, { upstream: upstreamOf(provider, clock, baseUrl), mapping: mappingOf(provider), logout: provider.logout }])));
  binder.resolved(RECORDS, [KEYS.RecordStores, KEYS.RandomSource], (records, random) => new DelegationRecords(records, random, delegation.waitingPerAddress));
  binder.resolved(LOGIN, [PROVIDERS, RECORDS, KEYS.UserDirectory, KEYS.Clock, KEYS.EventSink], (providers, records, directory, clock, events) => new DelegatedLogin(providers, records, directory, clock, events, delegation.stateSeconds));
  binder.resolved(LOGOUT, [PROVIDERS, RECORDS, KEYS.Clock, KEYS.EventSink], (providers, records, clock, events) => new UpstreamLogout(providers, records, clock, events, delegation.stateSeconds));
  // What a session made through a provider with logout keeps for it: taken over when the session is made, dropped when it ends.
  binder.resolved(KEYS.SessionListener, [LOGOUT], (logout) => logout);
  binder.constant(KEYS.CredentialExtractor, delegatedExtractor(delegationCookie(server.publicUrl, server.basePath).name));
  // A service's delegatedAuthenticationPolicy over single sign-on, its tickets and their validation.
  binder.constant(KEYS.AdmissionRule, new DelegatedAuthenticationRule());
  binder.resolved(KEYS.CredentialHandler, [LOGIN], (login) => login);
  binder.resolved(KEYS.HttpModule, [LOGIN, LOGOUT, KEYS.PageBranding], (login, logout, branding) => delegationModule({ providers: buttons, login, logout, branding, language: 'en' }));
};

function upstreamOf(provider: UpstreamProviderSettings, clock: Clock, baseUrl: string): UpstreamProvider {
  if (provider.type === 'oidc' && provider.oidc !== undefined) return new OidcUpstream(provider.id, provider.oidc, provider.timeoutSeconds, clock);
  if (provider.type === 'oauth2' && provider.oauth2 !== undefined) return new OAuth2Upstream(provider.id, provider.oauth2, provider.timeoutSeconds);
  if (provider.type === 'cas' && provider.cas !== undefined) return new CasUpstream(provider.id, provider.cas, provider.timeoutSeconds);
  if (provider.type === 'saml2' && provider.saml2 !== undefined) {
    const entityId = provider.saml2.spEntityId ?? `${baseUrl}${DELEGATION_SAML2_PATH}/${provider.id}/metadata`;
    return new Saml2Upstream(provider.id, provider.saml2, entityId, provider.timeoutSeconds, clock, provider.logout);
  }
  // The module's problems refuse a provider without its type's settings before anything is bound.
  throw new Error(`delegation.providers: ${provider.id} has no ${provider.type} settings`);
}

function mappingOf(provider: UpstreamProviderSettings): DelegationProvider['mapping'] {
  return {
    ...(provider.principalAttribute !== undefined && { principalAttribute: provider.principalAttribute }),
    ...(provider.attributes !== undefined && { attributes: provider.attributes }),
    ...(provider.linkAttribute !== undefined && { linkAttribute: provider.linkAttribute }),
    requireLink: provider.requireLink,
  };
}
