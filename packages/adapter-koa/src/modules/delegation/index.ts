export { delegationModule, type DelegationModuleOptions } from './delegation-module.js';
export { DELEGATION_MESSAGES, delegationMessages, type DelegationMessages } from './messages.js';
export { DELEGATED_LOGIN, DELEGATION_CALLBACK_PATH, DELEGATION_COOKIE, DELEGATION_LOGOUT_PATH, DELEGATION_PARAMETERS, DELEGATION_START_PATH } from './parameters.js';
export { delegatedExtractor } from './delegated-extractor.js';
export { DelegationPages } from './pages.js';
export { delegationPolicySection, POLICY_CLASS, POLICY_KEY } from './policy-codec.js';
export { delegationButtonsPart, REDIRECT_SCRIPT } from './views.js';
