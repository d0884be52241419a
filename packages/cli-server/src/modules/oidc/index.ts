import { cryptoRandomSource } from '@tessera/core';
import { generateOidcKeySet } from '@tessera/core/modules/oidc';
import type { Config } from '../../config/schema.js';
import type { ModuleKeyFile, SettingProblem, TesseraModule } from '../module.js';
import { oidcSchema } from './config.js';
import { registerOidcModule } from './register.js';

const sections = { oidc: oidcSchema.prefault({}) };

/** `oidc` (docs/modules/oidc.md): an OpenID Provider on the login session of /login. */
export const oidcModule: TesseraModule<typeof sections> = {
  name: 'oidc',
  // Its logins are the login module's /login, and its clients are registered services.
  dependencies: ['rest', 'login'],
  sections,
  problems: oidcProblems,
  keyFiles: oidcKeyFiles,
  register: registerOidcModule,
};

/** The issuer is fixed: tokens name it, so it never comes from a request's host. */
function oidcProblems(config: Config): SettingProblem[] {
  if (config.server.publicUrl !== undefined) return [];
  return [{ path: ['server', 'publicUrl'], message: 'is required by the oidc module: the issuer of its tokens is server.publicUrl + server.basePath + /oidc' }];
}

/** `oidc.keyFile`, unless `oidc.keys` is set. */
function oidcKeyFiles({ oidc }: Config): ModuleKeyFile[] {
  if (oidc.keys !== undefined) return [];
  return [{ setting: 'oidc.keyFile', file: oidc.keyFile, inMemory: (config) => ({ ...config, oidc: { ...config.oidc, keys: JSON.stringify(generateOidcKeySet(cryptoRandomSource)) } }) }];
}
