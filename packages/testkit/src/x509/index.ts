export { EXTENDED_KEY_USAGE, KEY_USAGE, ListRevocationSource, TestAuthority, TestPki, type CertificateOptions, type IssuedCertificate, type RevocationList } from './test-pki.js';
export { HttpsCallbackListener, type CallbackAnswer } from './https-callback-listener.js';
