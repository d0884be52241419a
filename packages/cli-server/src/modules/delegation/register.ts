import { delegatedExtractor, delegationModule } from '@tessera/adapter-koa/modules/delegation';
import type { Clock } from '@tessera/core';
import { DelegatedAuthenticationRule, DelegatedLogin, DelegationRecords, type DelegationProvider, type UpstreamProvider } from '@tessera/core/modules/delegation';
import { key, KEYS } from '../../keys.js';
import type { ModuleRegistration } from '../module.js';
import { CasUpstream } from './cas-upstream.js';
import type { delegationSections, UpstreamProviderSettings } from './config.js';
import { OAuth2Upstream } from './oauth2-upstream.js';
import { OidcUpstream } from './oidc-upstream.js';

const LOGIN = key<DelegatedLogin>('delegation: delegated login');

/**
 * `delegation`: the upstream providers (openid-client for OpenID providers, CAS 3 validation for CAS
 * servers), the logins waiting upstream and the proofs of those back in the module's own record
 * namespaces, the handler and extractor of the proof the login form is posted with, and the HTTP part
 * (the login page's buttons, the routes leaving for and coming back from upstream).
 */
export const registerDelegationModule: ModuleRegistration<typeof delegationSections> = (binder, { delegation }) => {
  const buttons = delegation.providers.map(({ id, title, logoUrl }) => ({ id, title, ...(logoUrl !== undefined && { logoUrl }) }));
  binder.resolved(LOGIN, [KEYS.RecordStores, KEYS.RandomSource, KEYS.UserDirectory, KEYS.Clock, KEYS.EventSink], (records, random, directory, clock, events) => {
    const providers = new Map<string, DelegationProvider>(delegation.providers.map((provider) => [provider.id, { upstream: upstreamOf(provider, clock), mapping: mappingOf(provider) }]));
    return new DelegatedLogin(providers, new DelegationRecords(records, random, delegation.waitingPerAddress), directory, clock, events, delegation.stateSeconds);
  });
  binder.constant(KEYS.CredentialExtractor, delegatedExtractor());
  // A service's delegatedAuthenticationPolicy over single sign-on, its tickets and their validation.
  binder.constant(KEYS.AdmissionRule, new DelegatedAuthenticationRule());
  binder.resolved(KEYS.CredentialHandler, [LOGIN], (login) => login);
  binder.resolved(KEYS.HttpModule, [LOGIN, KEYS.PageBranding], (login, branding) => delegationModule({ providers: buttons, login, branding, language: 'en' }));
};

function upstreamOf(provider: UpstreamProviderSettings, clock: Clock): UpstreamProvider {
  if (provider.type === 'oidc' && provider.oidc !== undefined) return new OidcUpstream(provider.id, provider.oidc, provider.timeoutSeconds, clock);
  if (provider.type === 'oauth2' && provider.oauth2 !== undefined) return new OAuth2Upstream(provider.id, provider.oauth2, provider.timeoutSeconds);
  if (provider.type === 'cas' && provider.cas !== undefined) return new CasUpstream(provider.id, provider.cas, provider.timeoutSeconds);
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
