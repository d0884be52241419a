export * from './certificate-validator.js';
export { certificatesFromText, describeRevocationList, trustAnchorCertificates, x509Credential } from './certificates.js';
export { PkijsCertificateValidator, type CertificatePolicy } from './pkijs-certificate-validator.js';
export { CERTIFICATE_REASONS } from './reasons.js';
export type { RevocationPolicy } from './revocation.js';
export { PRINCIPAL_ID_SOURCES, X509CredentialHandler, type PrincipalIdSource } from './x509-handler.js';
export * from './credential.js';
export type * from './events.js';
