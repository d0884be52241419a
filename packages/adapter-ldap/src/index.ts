export { escapeDnValue, escapeFilterValue, fillTemplate } from './escape.js';
export { DIRECTORY_UNAVAILABLE } from './ldap-connection.js';
export { LdapReadinessCheck } from './ldap-readiness.js';
export { ACCOUNT_LOCKED, LdapCredentialHandler } from './ldap-credential-handler.js';
export type { LdapSettings } from './ldap-settings.js';
