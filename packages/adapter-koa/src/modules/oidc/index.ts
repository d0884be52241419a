export { AUTHORIZATION_REQUEST_BYTES, oidcModule, type OidcModuleOptions } from './oidc-module.js';
export { OidcPages } from './oidc-pages.js';
export { clientOf, createOidcProvider, type AccessTokenProfile, type OidcProviderDependencies, type TesseraOidcProvider } from './oidc-provider.js';
export { loginCallbackUrl } from './oidc-routes.js';
export { OidcRelyingParties } from './oidc-relying-parties.js';
export { endLoginSession } from './end-login-session.js';
export { loadProviderLibrary, type ProviderLibrary } from './provider-library.js';
export { RecordAdapter } from './record-adapter.js';
export { pairwiseUsernameCodec } from './pairwise-subject-codec.js';
