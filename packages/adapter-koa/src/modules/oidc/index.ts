export { oidcModule, type OidcModuleOptions } from './oidc-module.js';
export { OidcPages } from './oidc-pages.js';
export { clientOf, createOidcProvider, type AccessTokenProfile, type OidcProviderDependencies, type TesseraOidcProvider } from './oidc-provider.js';
export { loginCallbackPattern, loginCallbackUrl } from './oidc-routes.js';
export { endLoginSession } from './end-login-session.js';
export { loadProviderLibrary, type ProviderLibrary } from './provider-library.js';
export { RecordAdapter } from './record-adapter.js';
export { SCOPE_POLICY_CODECS } from './scope-policy-codecs.js';
