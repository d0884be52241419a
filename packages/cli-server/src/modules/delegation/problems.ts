import type { SettingProblem } from '../module.js';
import type { UpstreamProviderSettings } from './config.js';

/**
 * What keeps the providers from working: an id given twice, a provider without the settings of its
 * type (or with another type's), a link required without the attribute that links, a logout asked of a
 * kind that has none, a SAML 2 key without its certificate, signed AuthnRequests or a single logout
 * without a key. Each named by its setting.
 */
export function providerProblems(providers: readonly UpstreamProviderSettings[]): SettingProblem[] {
  const problems: SettingProblem[] = [];
  providers.forEach((provider, index) => {
    const at = (...path: string[]): (string | number)[] => ['delegation', 'providers', index, ...path];
    if (providers.findIndex((other) => other.id === provider.id) !== index) problems.push({ path: at('id'), message: `the provider id ${provider.id} is given twice` });
    if (provider[provider.type] === undefined) problems.push({ path: at(provider.type), message: `is required for a provider of type ${provider.type}` });
    for (const other of (['oidc', 'oauth2', 'cas', 'saml2'] as const).filter((type) => type !== provider.type && provider[type] !== undefined)) {
      problems.push({ path: at(other), message: `is for a provider of type ${other}; this one is of type ${provider.type}` });
    }
    const saml2 = provider.type === 'saml2' ? provider.saml2 : undefined;
    if (saml2 !== undefined && (saml2.keyFile === undefined) !== (saml2.certificateFile === undefined)) {
      problems.push({ path: at('saml2', saml2.keyFile === undefined ? 'keyFile' : 'certificateFile'), message: 'keyFile and certificateFile go together: the key and its certificate' });
    }
    if (saml2?.signAuthnRequests === true && saml2.keyFile === undefined) problems.push({ path: at('saml2', 'signAuthnRequests'), message: 'needs keyFile and certificateFile, the key AuthnRequests are signed with' });
    if (provider.logout && provider.type === 'oauth2') problems.push({ path: at('logout'), message: 'a plain OAuth 2.0 provider has no logout: only oidc and cas providers end the session upstream' });
    if (provider.logout && saml2 !== undefined && saml2.keyFile === undefined) problems.push({ path: at('logout'), message: 'needs saml2.keyFile and saml2.certificateFile: a SAML 2 LogoutRequest is signed with tessera’s key (identity providers refuse unsigned ones)' });
    if (provider.requireLink && provider.linkAttribute === undefined) problems.push({ path: at('requireLink'), message: 'needs linkAttribute, the upstream attribute naming the local user' });
  });
  return problems;
}
