export { EXTENDED_KEY_USAGE, KEY_USAGE, ListRevocationSource, pem, TestAuthority, TestPki, type CertificateOptions, type IssuedCertificate, type RevocationList } from './test-pki.js';
