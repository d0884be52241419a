export { describeSamlRequestIdStore, type SamlRequestIdStoreFactory } from './request-id-store-contract.js';
export { samlCredential, type SamlCredential } from './saml-credentials.js';
export { describeSamlSessionStore, type SamlSessionStoreFactory } from './session-store-contract.js';
export { describeSaml2StoresOnRecords } from './stores-on-records.js';
export { describePendingSamlLogins, type PendingSamlLoginsFactory } from './pending-logins-contract.js';
