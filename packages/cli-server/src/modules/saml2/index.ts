import { SAML_RELEASE_POLICY_PARTS, samlServiceProviderType } from '@tessera/adapter-koa/modules/saml2';
import type { ModuleContext, ModuleKeyFile, ModuleSettings, SettingProblem, TesseraModule } from '../module.js';
export { httpsDownload } from './https-download.js';
import { saml2Commands } from './commands.js';
import { saml2Sections } from './config.js';
import { saml2Events } from './events.js';
import { registerSaml2Module } from './register.js';

/** `saml2` (docs/modules/saml2.md): a SAML 2.0 identity provider on the login session of /login. */
export const saml2Module: TesseraModule<typeof saml2Sections> = {
  name: 'saml2',
  // Its logins are the login module's /login.
  dependencies: ['login'],
  comparisonRows: ['SAML 2 identity provider, on the CAS login session'],
  sections: saml2Sections,
  // Its service providers: SamlRegisteredService, found by their entity id, never by a CAS service URL.
  serviceTypes: [samlServiceProviderType],
  // Apereo's SAML release policies (EduPersonTargetedIdAttributeReleasePolicy, the Research and
  // Scholarship bundles), each its behaviour and its codec part.
  servicePolicies: { usernameProviders: [], releasePolicies: SAML_RELEASE_POLICY_PARTS },
  // The SSO and SLO endpoints' (both bindings, IdP-initiated) and the login callback's.
  parameters: () => ['SAMLRequest', 'SAMLResponse', 'RelayState', 'SigAlg', 'Signature', 'providerId', 'shire', 'target', 'time', 'ticket'].map((name) => ({ name })),
  problems: saml2Problems,
  keyFiles: saml2KeyFiles,
  commands: saml2Commands,
  events: saml2Events,
  register: registerSaml2Module,
};

type Saml2Settings = ModuleSettings<typeof saml2Sections>;

/** The metadata names absolute endpoints, so the IdP needs its public URL. */
function saml2Problems(_settings: Saml2Settings, { server }: ModuleContext): SettingProblem[] {
  if (server.publicUrl !== undefined) return [];
  return [{ path: ['server', 'publicUrl'], message: 'is required by the saml2 module: its metadata names its endpoints under server.publicUrl + server.basePath' }];
}

/**
 * `saml2.keyFile`, unless `saml2.keys` is set. The key set is read (or made and written) when the server
 * opens its resources, which `config check` never does: the check composes the module as it is and
 * writes nothing.
 */
function saml2KeyFiles({ saml2 }: Saml2Settings): ModuleKeyFile<Saml2Settings>[] {
  if (saml2.keys !== undefined) return [];
  return [{ setting: 'saml2.keyFile', file: saml2.keyFile, inMemory: (settings) => settings }];
}
