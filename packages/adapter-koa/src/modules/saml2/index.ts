export * from './inbound.js';
export * from './metadata.js';
export * from './redirect-binding.js';
export * from './saml-messages.js';
export * from './saml-response.js';
export * from './xml-signature.js';
export { parseXml, UnreadableXmlError, NS } from './xml.js';
export * from './saml2-module.js';
export * from './logout-messages.js';
