import { cryptoRandomSource } from '@tessera/core';
import { generateOidcKeySet } from '@tessera/core/modules/oidc';
import type { ModuleContext, ModuleKeyFile, ModuleSettings, SettingProblem, TesseraModule } from '../module.js';
import { oidcSections } from './config.js';
import { registerOidcModule } from './register.js';

/** `oidc` (docs/modules/oidc.md): an OpenID Provider on the login session of /login. */
export const oidcModule: TesseraModule<typeof oidcSections> = {
  name: 'oidc',
  // Its logins are the login module's /login.
  dependencies: ['login'],
  sections: oidcSections,
  // The interaction routes'; the provider's own endpoints are node-oidc-provider's, outside the router.
  parameters: () => ['ticket', 'decision'].map((name) => ({ name })),
  problems: oidcProblems,
  keyFiles: oidcKeyFiles,
  register: registerOidcModule,
};

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
