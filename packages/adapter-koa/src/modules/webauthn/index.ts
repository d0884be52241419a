export { browserLibrary, BROWSER_LIBRARY_PATH, type BrowserLibrary } from './browser-library.js';
export { WEBAUTHN_MESSAGES, webAuthnMessages, type WebAuthnMessages } from './messages.js';
export { MAX_RESPONSE_LENGTH, WEBAUTHN_PARAMETERS } from './parameters.js';
export { webAuthnExtractor } from './webauthn-extractor.js';
export { webAuthnModule, type WebAuthnModuleOptions } from './webauthn-module.js';
