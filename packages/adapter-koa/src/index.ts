export { createApp } from './app.js';
export type { HttpOptions } from './http-options.js';
export type { AppDependencies, HttpContext, HttpModule, Step } from './http-module.js';
export { restModule } from './rest/rest-module.js';
export { credentialExtractor, otpExtractor, usernamePasswordExtractor, type CredentialExtractor, type CredentialRequest } from './request/credentials.js';
export { defineRoute, type Route, type RouteDeclaration, type RouteInput, type RouteRequest } from './routes/route.js';
export { servicesModule, type ServicesModuleOptions } from './services/services-module.js';
export { BASIC_CHALLENGE } from './errors/rest-errors.js';
export type { ThrottleCondition } from './throttle/throttle-step.js';
