import { DOMParser } from '@xmldom/xmldom';

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const HTTP_REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/**
 * What tessera needs of an identity provider's metadata: where its single sign-on is (HTTP-Redirect),
 * where its single logout is (HTTP-Redirect; undefined when it has none), and the certificates it signs with.
 */
export type IdpMetadata = { readonly singleSignOnUrl: string; readonly singleLogoutUrl?: string; readonly signingCertificates: readonly string[] };

/**
 * The identity provider `entityId` in `xml` (an EntityDescriptor, or an EntitiesDescriptor holding it):
 * its IDPSSODescriptor for SAML 2, its SingleSignOnService (and any SingleLogoutService) over HTTP-Redirect, and the certificates of
 * its KeyDescriptors for signing (those without `use` serve both). Throws naming what is missing. The
 * metadata's own signature is not checked: it comes from a file the operator placed or over https.
 */
export function readIdpMetadata(xml: string, entityId: string): IdpMetadata {
  // No DOCTYPE: metadata never needs one, and entity declarations are how XML bombs get in.
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new Error('the metadata holds a DOCTYPE or an entity declaration');
  const refuse = (message: string): never => {
    throw new Error(`the metadata is not well-formed XML: ${(message.split('\n')[0] ?? '').slice(0, 200)}`);
  };
  const root = new DOMParser({ errorHandler: { warning: refuse, error: refuse, fatalError: refuse } }).parseFromString(xml, 'text/xml').documentElement as Element | null;
  if (root === null) throw new Error('the metadata is empty');
  const entity = elements(root, MD, 'EntityDescriptor', true).find((each) => each.getAttribute('entityID') === entityId);
  if (entity === undefined) throw new Error(`the metadata has no EntityDescriptor for ${entityId}`);
  const idp = elements(entity, MD, 'IDPSSODescriptor').find((each) => (each.getAttribute('protocolSupportEnumeration') ?? '').split(/\s+/).includes(PROTOCOL));
  if (idp === undefined) throw new Error(`the metadata of ${entityId} has no SAML 2 IDPSSODescriptor`);
  const sso = elements(idp, MD, 'SingleSignOnService').find((each) => each.getAttribute('Binding') === HTTP_REDIRECT)?.getAttribute('Location');
  if (sso === undefined || sso === null || !URL.canParse(sso)) throw new Error(`the metadata of ${entityId} has no SingleSignOnService over HTTP-Redirect`);
  const slo = elements(idp, MD, 'SingleLogoutService').find((each) => each.getAttribute('Binding') === HTTP_REDIRECT)?.getAttribute('Location');
  const signingCertificates = elements(idp, MD, 'KeyDescriptor')
    .filter((each) => (each.getAttribute('use') ?? 'signing') === 'signing' || each.getAttribute('use') === '')
    .flatMap((each) => elements(each, DS, 'X509Certificate', true))
    .map((each) => (each.textContent ?? '').replace(/\s+/g, ''))
    .filter((each) => each !== '')
    .map(pem);
  if (signingCertificates.length === 0) throw new Error(`the metadata of ${entityId} has no signing certificate`);
  return { singleSignOnUrl: sso, ...(typeof slo === 'string' && URL.canParse(slo) && { singleLogoutUrl: slo }), signingCertificates };
}

/** The element's children (or, `deep`, the element itself and its descendants) of this name. */
function elements(parent: Element, namespace: string, name: string, deep = false): Element[] {
  if (deep) {
    const found = Array.from(parent.getElementsByTagNameNS(namespace, name));
    return parent.namespaceURI === namespace && parent.localName === name ? [parent, ...found] : found;
  }
  return Array.from(parent.childNodes as ArrayLike<Node>).filter((node): node is Element => node.nodeType === 1 && (node as Element).namespaceURI === namespace && (node as Element).localName === name);
}

function pem(base64: string): string {
  return `-----BEGIN CERTIFICATE-----\n${base64.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----\n`;
}
