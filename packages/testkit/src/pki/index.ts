export { EXTENDED_KEY_USAGE, KEY_USAGE, TestAuthority, TestPki, type CertificateOptions, type IssuedCertificate, type RevocationList } from './test-pki.js';
