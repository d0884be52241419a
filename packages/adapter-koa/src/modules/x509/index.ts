export { formCertificateExtractor, headerCertificateExtractor, tlsCertificateExtractor, type ProxyCertificateOptions } from './certificate-extractors.js';
