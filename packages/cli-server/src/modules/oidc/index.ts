import { cryptoRandomSource } from '@tessera/core';
import { generateOidcKeySet, pairwiseUsername, SCOPE_RELEASE_POLICIES } from '@tessera/core/modules/oidc';
import { oauthClientType, oidcClientType, pairwiseUsernameCodec, SCOPE_POLICY_CODECS } from '@tessera/adapter-koa/modules/oidc';
import type { ModuleContext, ModuleKeyFile, ModuleSettings, SettingProblem, TesseraModule } from '../module.js';
import { oidcCommands } from './commands.js';
import { oidcSections } from './config.js';
import { oidcEvents } from './events.js';
import { registerOidcModule } from './register.js';

/** `oidc` (docs/modules/oidc.md): an OpenID Provider on the login session of /login. */
export const oidcModule: TesseraModule<typeof oidcSections> = {
  name: 'oidc',
  comparisonRows: ['OpenID Connect provider, on the CAS login session'],
  // Its logins are the login module's /login.
  dependencies: ['login'],
  sections: oidcSections,
  events: oidcEvents,
  // Apereo's pairwise subjects of OpenID Connect clients (OIDC Core §8.1), and its scope release
  // policies (OidcProfileScopeAttributeReleasePolicy and the like), each its behaviour and its codec part.
  // Its clients: OidcRegisteredService and OAuthRegisteredService, found by their client id, never by a CAS service URL.
  serviceTypes: [oidcClientType, oauthClientType],
  servicePolicies: {
    usernameProviders: [{ behaviour: pairwiseUsername, codec: pairwiseUsernameCodec }],
    releasePolicies: SCOPE_RELEASE_POLICIES.map((behaviour) => {
      const codec = SCOPE_POLICY_CODECS.find((candidate) => candidate.type === behaviour.type);
      if (!codec) throw new Error(`${behaviour.type} has no codec part`);
      return { behaviour, codec };
    }),
  },
  // The interaction routes' and the OAuth profile's, then the secrets the provider's own endpoints
  // (outside the router) read: no log or audit line holds them.
  parameters: () => [
    ...['ticket', 'decision'].map((name) => ({ name })),
    { name: 'access_token', secret: true },
    ...OAUTH_SECRET_PARAMETERS.filter((name) => name !== 'access_token').map((name) => ({ name, secret: true, mounted: true })),
  ],
  problems: oidcProblems,
  keyFiles: oidcKeyFiles,
  commands: oidcCommands,
  register: registerOidcModule,
};

/**
 * The provider's parameters that hold secrets: client credentials, code verifiers, tokens. Not `code`:
 * declared, it would take out every `code` field of the log (a CAS validation failure's); the provider
 * writes no code to the log, and the log canary looks for every code the tests were given.
 */
export const OAUTH_SECRET_PARAMETERS = ['client_secret', 'client_assertion', 'code_verifier', 'access_token', 'refresh_token', 'id_token', 'id_token_hint', 'token', 'logout_token'];

/** The issuer is fixed: tokens name it, so it never comes from a request's host. */
type OidcSettings = ModuleSettings<typeof oidcSections>;

function oidcProblems(_settings: OidcSettings, { server }: ModuleContext): SettingProblem[] {
  if (server.publicUrl !== undefined) return [];
  return [{ path: ['server', 'publicUrl'], message: 'is required by the oidc module: the issuer of its tokens is server.publicUrl + server.basePath + /oidc' }];
}

/** `oidc.keyFile`, unless `oidc.keys` is set. */
function oidcKeyFiles({ oidc }: OidcSettings): ModuleKeyFile<OidcSettings>[] {
  if (oidc.keys !== undefined) return [];
  return [{ setting: 'oidc.keyFile', file: oidc.keyFile, inMemory: (settings) => ({ ...settings, oidc: { ...settings.oidc, keys: JSON.stringify(generateOidcKeySet(cryptoRandomSource)) } }) }];
}
