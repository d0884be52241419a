/**
 * The SAML 2.0 names the module speaks (SAML Core, Bindings and Metadata): protocol URIs, so they are
 * the domain's, though no XML is. docs/modules/saml2.md lists which of them tessera offers.
 */

export const NAME_ID_FORMAT = {
  persistent: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
  transient: 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient',
  email: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  unspecified: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
} as const;

export type NameIdFormat = (typeof NAME_ID_FORMAT)[keyof typeof NAME_ID_FORMAT];

/** The NameID formats tessera issues, in the order the IdP metadata lists them. */
export const SUPPORTED_NAME_ID_FORMATS: readonly NameIdFormat[] = [NAME_ID_FORMAT.persistent, NAME_ID_FORMAT.transient, NAME_ID_FORMAT.email, NAME_ID_FORMAT.unspecified];

export function isSupportedNameIdFormat(format: string): format is NameIdFormat {
  return (SUPPORTED_NAME_ID_FORMATS as readonly string[]).includes(format);
}

export const BINDING = {
  redirect: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect',
  post: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST',
} as const;

export type SamlBinding = (typeof BINDING)[keyof typeof BINDING];

export function isSamlBinding(binding: string): binding is SamlBinding {
  return binding === BINDING.redirect || binding === BINDING.post;
}

/** Top-level and second-level status codes (SAML Core §3.2.2.2). */
export const STATUS = {
  success: 'urn:oasis:names:tc:SAML:2.0:status:Success',
  requester: 'urn:oasis:names:tc:SAML:2.0:status:Requester',
  responder: 'urn:oasis:names:tc:SAML:2.0:status:Responder',
  versionMismatch: 'urn:oasis:names:tc:SAML:2.0:status:VersionMismatch',
  authnFailed: 'urn:oasis:names:tc:SAML:2.0:status:AuthnFailed',
  invalidNameIdPolicy: 'urn:oasis:names:tc:SAML:2.0:status:InvalidNameIDPolicy',
  noAuthnContext: 'urn:oasis:names:tc:SAML:2.0:status:NoAuthnContext',
  noPassive: 'urn:oasis:names:tc:SAML:2.0:status:NoPassive',
  requestDenied: 'urn:oasis:names:tc:SAML:2.0:status:RequestDenied',
  requestUnsupported: 'urn:oasis:names:tc:SAML:2.0:status:RequestUnsupported',
  unsupportedBinding: 'urn:oasis:names:tc:SAML:2.0:status:UnsupportedBinding',
  unknownPrincipal: 'urn:oasis:names:tc:SAML:2.0:status:UnknownPrincipal',
  partialLogout: 'urn:oasis:names:tc:SAML:2.0:status:PartialLogout',
} as const;

export type SamlStatusCode = (typeof STATUS)[keyof typeof STATUS];

/** How an Attribute's Name is to be read (SAML Core §8.2); the short names are Apereo's `attributeNameFormats` values. */
export const ATTRIBUTE_NAME_FORMAT = {
  basic: 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic',
  uri: 'urn:oasis:names:tc:SAML:2.0:attrname-format:uri',
  unspecified: 'urn:oasis:names:tc:SAML:2.0:attrname-format:unspecified',
} as const;

/** The subject confirmation a browser SSO assertion carries (SAML Profiles §4.1.4.2). */
export const SUBJECT_CONFIRMATION_BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

/** The authentication context classes tessera names, and the one it names when a login proved a password. */
export const AUTHN_CONTEXT = {
  passwordProtectedTransport: 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport',
  password: 'urn:oasis:names:tc:SAML:2.0:ac:classes:Password',
  x509: 'urn:oasis:names:tc:SAML:2.0:ac:classes:X509',
  unspecified: 'urn:oasis:names:tc:SAML:2.0:ac:classes:unspecified',
} as const;

/** The signature algorithms a signature of tessera's or an SP's may use; SHA-1 is refused (broken for signatures). */
export const SIGNATURE_ALGORITHM = {
  rsaSha256: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  rsaSha512: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
} as const;

export type SignatureAlgorithm = (typeof SIGNATURE_ALGORITHM)[keyof typeof SIGNATURE_ALGORITHM];

export const SIGNATURE_ALGORITHMS: readonly SignatureAlgorithm[] = [SIGNATURE_ALGORITHM.rsaSha256, SIGNATURE_ALGORITHM.rsaSha512];

export function isSignatureAlgorithm(algorithm: string): algorithm is SignatureAlgorithm {
  return (SIGNATURE_ALGORITHMS as readonly string[]).includes(algorithm);
}
