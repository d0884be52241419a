export { delegationModule, type DelegationModuleOptions } from './delegation-module.js';
export { DELEGATION_MESSAGES, delegationMessages, type DelegationMessages } from './messages.js';
export { DELEGATED_LOGIN, DELEGATION_CALLBACK_PATH, DELEGATION_COOKIE, delegationCookie, DELEGATION_LOGOUT_PATH, DELEGATION_PARAMETERS, DELEGATION_SAML2_PATH, DELEGATION_START_PATH, POSTED_AGAIN, RELAY_STATE, SAML_RESPONSE, SIG_ALG, SIGNATURE, type DelegationCookie } from './parameters.js';
export { delegatedExtractor } from './delegated-extractor.js';
export { DelegationPages } from './pages.js';
export { delegationPolicySection, POLICY_CLASS, POLICY_KEY } from './policy-codec.js';
export { delegationButtonsPart, REDIRECT_SCRIPT } from './views.js';
