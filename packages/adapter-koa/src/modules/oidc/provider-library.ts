import type * as OidcProviderModule from 'oidc-provider';

/** node-oidc-provider, as its module exports it. */
export type ProviderLibrary = typeof OidcProviderModule;

/**
 * Loads node-oidc-provider: only the oidc module does, when it is on, so no other command or
 * deployment loads it (on Node 20 it warns, as it loads, that it recommends a newer runtime).
 */
export function loadProviderLibrary(): Promise<ProviderLibrary> {
  return import('oidc-provider');
}
