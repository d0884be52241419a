export { createApp } from './app.js';
export type { HttpOptions } from './http-options.js';
export { loginPromptPart } from './http-module.js';
export type {
  AfterLogout,
  AfterLogoutStep,
  ClientAuthenticationGuard,
  ClientAuthenticationOutcome,
  ClientAuthenticationSubject,
  AppDependencies,
  BrowserSessions,
  DirectLane,
  HttpBasics,
  HttpContext,
  HttpExtensions,
  HttpModule,
  LoginFormState,
  LoginPageView,
  LoginPromptPart,
  PromptPage,
  PromptView,
  RequestCondition,
  ScriptFile,
  Step,
  StepChoice,
  TicketEncoding,
  ValidationExtension,
} from './http-module.js';
export { DEFAULT_COLOURS, contrastRatio, isHexColour, stylesheet, type BrandColours, type Branding } from './pages/branding.js';
export { credentialExtractor, type CredentialExtractor, type CredentialRequest } from './request/credentials.js';
export { usernamePasswordExtractor } from './request/username-password-extractor.js';
export { defineRoute, type Route, type RouteDeclaration, type RouteInput, type RouteRequest } from './routes/route.js';
export { peerAddress, trustedPeers } from './request/trusted-peers.js';
export { requestOrigin } from './request/request-origin.js';
export { HOST_PATTERN, LOOPBACK_HOSTS } from './request/request-url.js';
export type { ParseOptions } from './services/codecs/cas-service-json.js';
export { BUILT_IN_RELEASE_POLICY_CODECS, BUILT_IN_USERNAME_PROVIDER_CODECS } from './services/codecs/built-in-policy-codecs.js';
export { LEGACY_DEFAULT_EVALUATION_ORDER, LEGACY_SERVICE_TYPE, type LegacyServiceForm } from './services/codecs/legacy-service-form.js';
export type { ServiceCodecParts, ServicePolicyCodec } from './services/codecs/policy-codec.js';
export type { ServiceSectionCodec, ServiceTypeCodec } from './services/codecs/module-service-keys.js';
export { serviceCodec, withServiceTemplates, type ServiceCodec } from './services/codecs/service-codec.js';
export { ServiceTemplates, type ServiceTemplate } from './services/codecs/service-templates.js';
export { answerClientErrors } from './errors/client-errors.js';
export { ADMIN_PATHS, createAdminApp, type AdminDependencies, type MetricsExposition } from './observability/admin-app.js';
export type { RequestObserver } from './observability/observe-requests.js';
export { escapeHtml, formatMessage, html, Html, type HtmlValue } from './pages/html.js';
