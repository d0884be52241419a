import { X509Certificate } from 'node:crypto';
import { BINDING, SUPPORTED_NAME_ID_FORMATS, type SamlKey, type SignatureAlgorithm, type SpEndpoint, type SpMetadata } from '@tessera/core/modules/saml2';
import { DATA_ENCRYPTION_ALGORITHMS } from './saml-response.js';
import { XmlBuilder } from './xml-builder.js';
import { envelopedSignatureOf, SignatureRefusedError, signEnveloped, verifyEnvelopedSignature, type SigningCredential } from './xml-signature.js';
import { attribute, childElements, isElement, NS, parseXml, readBoolean, readInstant, serialize, textOf, UnreadableXmlError, writeInstant } from './xml.js';

const SAML2_PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';

/** SP metadata tessera will not use: `reason` says why, safe to show. */
export class MetadataError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'MetadataError';
  }
}

export interface MetadataReading {
  /** The SP's entity id: the EntityDescriptor to take, alone or in an EntitiesDescriptor. */
  readonly entityId: string;
  /** The certificate (PEM) the metadata must be signed with; without it, the metadata is trusted as its source is. */
  readonly signedBy?: string;
  readonly signatureAlgorithms: readonly SignatureAlgorithm[];
  readonly maxBytes: number;
  /** Epoch ms: metadata whose validUntil has passed is refused. */
  readonly now: number;
}

/**
 * An SP's metadata (SAML Metadata §2.3.2, §2.4.4): the EntityDescriptor of `entityId`, alone or in an
 * EntitiesDescriptor (an aggregate), with an SPSSODescriptor for SAML 2.0. With `signedBy`, the
 * document must carry an enveloped signature by that certificate, and what it covers is what is read.
 * Expired metadata (validUntil), an unreadable certificate or an endpoint without a Location is refused.
 */
export function readSpMetadata(xml: string, reading: MetadataReading): SpMetadata {
  try {
    const document = parseXml(xml, reading.maxBytes);
    let root: Element = document.documentElement;
    const signature = envelopedSignatureOf(document);
    if (reading.signedBy !== undefined) {
      if (signature === undefined) throw new MetadataError('The metadata is not signed, and its definition names the certificate it must be signed with');
      root = verifyEnvelopedSignature(xml, document, signature, [reading.signedBy], reading.signatureAlgorithms, reading.maxBytes);
    }
    const { entity, validUntil } = findEntity(root, reading.entityId, undefined);
    if (entity === undefined) throw new MetadataError(`The metadata holds no EntityDescriptor for ${reading.entityId}`);
    if (validUntil !== undefined && validUntil <= reading.now) throw new MetadataError(`The metadata expired at ${writeInstant(validUntil)} (validUntil)`);
    const descriptor = childElements(entity, NS.metadata, 'SPSSODescriptor').find((candidate) => (attribute(candidate, 'protocolSupportEnumeration') ?? '').split(/\s+/).includes(SAML2_PROTOCOL));
    if (descriptor === undefined) throw new MetadataError(`${reading.entityId} has no SPSSODescriptor for SAML 2.0`);
    const keys = childElements(descriptor, NS.metadata, 'KeyDescriptor');
    const certificatesFor = (use: string) => keys.filter((key) => (attribute(key, 'use') ?? use) === use).flatMap(certificatesOf);
    const encryptionMethods = keys
      .filter((key) => (attribute(key, 'use') ?? 'encryption') === 'encryption')
      .flatMap((key) => childElements(key, NS.metadata, 'EncryptionMethod').map((method) => attribute(method, 'Algorithm') ?? ''))
      .filter((algorithm) => algorithm !== '');
    return {
      entityId: reading.entityId,
      assertionConsumerServices: childElements(descriptor, NS.metadata, 'AssertionConsumerService').map(endpointOf),
      singleLogoutServices: childElements(descriptor, NS.metadata, 'SingleLogoutService').map(endpointOf),
      signingCertificates: certificatesFor('signing'),
      encryptionCertificates: certificatesFor('encryption'),
      encryptionMethods,
      authnRequestsSigned: readBoolean(attribute(descriptor, 'AuthnRequestsSigned'), 'AuthnRequestsSigned', false),
      wantAssertionsSigned: readBoolean(attribute(descriptor, 'WantAssertionsSigned'), 'WantAssertionsSigned', false),
      nameIdFormats: childElements(descriptor, NS.metadata, 'NameIDFormat').map(textOf),
      ...(validUntil !== undefined && { validUntil }),
      ...entityAttributesOf(entity),
    };
  } catch (error) {
    if (error instanceof UnreadableXmlError || error instanceof SignatureRefusedError) throw new MetadataError(error.reason);
    throw error;
  }
}

/** The EntityDescriptor of an entity id in an EntityDescriptor or (nested) EntitiesDescriptors, with the earliest validUntil on its way. */
function findEntity(element: Element, entityId: string, validUntil: number | undefined): { entity?: Element; validUntil?: number } {
  const own = attribute(element, 'validUntil');
  const until = own === undefined ? validUntil : Math.min(validUntil ?? Infinity, readInstant(own, 'validUntil'));
  const found = (entity: Element | undefined) => ({ ...(entity !== undefined && { entity }), ...(until !== undefined && { validUntil: until }) });
  if (isElement(element, NS.metadata, 'EntityDescriptor')) return found(attribute(element, 'entityID') === entityId ? element : undefined);
  if (!isElement(element, NS.metadata, 'EntitiesDescriptor')) throw new MetadataError(`The metadata is no EntityDescriptor or EntitiesDescriptor (got ${element.localName})`);
  for (const child of childElements(element, NS.metadata)) {
    if (child.localName !== 'EntityDescriptor' && child.localName !== 'EntitiesDescriptor') continue;
    const inner = findEntity(child, entityId, until);
    if (inner.entity !== undefined) return inner;
  }
  return found(undefined);
}

/** The EntityDescriptor's own entity attributes (Extensions/mdattr:EntityAttributes/saml:Attribute), name → values; none when it has none. */
function entityAttributesOf(entity: Element): { entityAttributes?: Record<string, string[]> } {
  const attributes: Record<string, string[]> = {};
  const declared = childElements(entity, NS.metadata, 'Extensions')
    .flatMap((extensions) => childElements(extensions, NS.mdattr, 'EntityAttributes'))
    .flatMap((entityAttributes) => childElements(entityAttributes, NS.saml, 'Attribute'));
  for (const element of declared) {
    const name = attribute(element, 'Name');
    if (name === undefined || name === '') throw new MetadataError('An EntityAttributes Attribute has no Name');
    attributes[name] = [...(attributes[name] ?? []), ...childElements(element, NS.saml, 'AttributeValue').map(textOf)];
  }
  return Object.keys(attributes).length === 0 ? {} : { entityAttributes: attributes };
}

function certificatesOf(keyDescriptor: Element): string[] {
  return childElements(keyDescriptor, NS.ds, 'KeyInfo')
    .flatMap((info) => childElements(info, NS.ds, 'X509Data'))
    .flatMap((data) => childElements(data, NS.ds, 'X509Certificate'))
    .map((element) => {
      const body = textOf(element).replace(/\s+/g, '');
      const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----\n`;
      try {
        new X509Certificate(pem);
      } catch {
        throw new MetadataError('A KeyDescriptor holds an X509Certificate that is no certificate');
      }
      return pem;
    });
}

function endpointOf(element: Element): SpEndpoint {
  const binding = attribute(element, 'Binding');
  const location = attribute(element, 'Location');
  if (binding === undefined || location === undefined || location === '') throw new MetadataError(`A ${element.localName} has no Binding or Location`);
  const index = attribute(element, 'index');
  if (index !== undefined && !/^\d{1,5}$/.test(index)) throw new MetadataError(`A ${element.localName} has an index that is none`);
  const responseLocation = attribute(element, 'ResponseLocation');
  return {
    binding,
    location,
    ...(index !== undefined && { index: Number(index) }),
    ...(element.hasAttribute('isDefault') && { isDefault: readBoolean(attribute(element, 'isDefault'), 'isDefault', false) }),
    ...(responseLocation !== undefined && { responseLocation }),
  };
}

/** Where the IdP answers, by path under its base URL (Apereo CAS's paths). */
export const IDP_PATHS = {
  metadata: '/idp/metadata',
  redirectSso: '/idp/profile/SAML2/Redirect/SSO',
  postSso: '/idp/profile/SAML2/POST/SSO',
  unsolicitedSso: '/idp/profile/SAML2/Unsolicited/SSO',
  redirectSlo: '/idp/profile/SAML2/Redirect/SLO',
  postSlo: '/idp/profile/SAML2/POST/SLO',
} as const;

export interface IdpMetadataSettings {
  readonly entityId: string;
  /** The IdP's base URL (public URL and base path), before IDP_PATHS. */
  readonly baseUrl: string;
  readonly signingKeys: readonly SamlKey[];
  readonly encryptionKeys: readonly SamlKey[];
  readonly wantAuthnRequestsSigned: boolean;
  /** validUntil and cacheDuration: how long an SP may use this document. */
  readonly validSeconds: number;
  readonly now: number;
  /** Sign the document with this credential and algorithm. */
  readonly signWith?: { readonly credential: SigningCredential; readonly algorithm: SignatureAlgorithm; readonly id: string };
}

/**
 * The IdP's metadata (SAML Metadata §2.4.3): every published signing and encryption certificate (a
 * rotation's next or previous one beside the current), single sign-on and logout over HTTP-Redirect
 * and HTTP-POST, the NameID formats tessera issues, valid for `validSeconds`; signed when asked.
 */
export function idpMetadataXml(settings: IdpMetadataSettings): string {
  const xml = new XmlBuilder(NS.metadata, 'EntityDescriptor');
  const md = (name: string, attributes: Readonly<Record<string, string | undefined>> = {}, content: readonly (Element | string)[] = []) => xml.element(NS.metadata, name, attributes, content);
  // An encryption key lists the algorithms tessera decrypts (AES-GCM), so an SP encrypting for it (Shibboleth's EncryptedID) picks one of them.
  const keyDescriptor = (use: string, key: SamlKey) =>
    md('KeyDescriptor', { use }, [
      xml.element(NS.ds, 'KeyInfo', {}, [xml.element(NS.ds, 'X509Data', {}, [xml.element(NS.ds, 'X509Certificate', {}, [certificateBody(key.certificate)])])]),
      ...(use === 'encryption' ? DATA_ENCRYPTION_ALGORITHMS.map((algorithm) => md('EncryptionMethod', { Algorithm: algorithm })) : []),
    ]);
  const endpoint = (name: string, binding: string, path: string) => md(name, { Binding: binding, Location: `${settings.baseUrl}${path}` });
  xml.fill(
    xml.root,
    {
      entityID: settings.entityId,
      ID: settings.signWith?.id,
      validUntil: writeInstant(settings.now + settings.validSeconds * 1000),
      cacheDuration: `PT${settings.validSeconds}S`,
    },
    [
      md('IDPSSODescriptor', { protocolSupportEnumeration: SAML2_PROTOCOL, WantAuthnRequestsSigned: String(settings.wantAuthnRequestsSigned) }, [
        ...settings.signingKeys.map((key) => keyDescriptor('signing', key)),
        ...settings.encryptionKeys.map((key) => keyDescriptor('encryption', key)),
        endpoint('SingleLogoutService', BINDING.redirect, IDP_PATHS.redirectSlo),
        endpoint('SingleLogoutService', BINDING.post, IDP_PATHS.postSlo),
        ...SUPPORTED_NAME_ID_FORMATS.map((format) => md('NameIDFormat', {}, [format])),
        endpoint('SingleSignOnService', BINDING.redirect, IDP_PATHS.redirectSso),
        endpoint('SingleSignOnService', BINDING.post, IDP_PATHS.postSso),
      ]),
    ],
  );
  const text = serialize(xml.document);
  const { signWith } = settings;
  return signWith === undefined ? text : signEnveloped(text, signWith.id, signWith.credential, signWith.algorithm, 'first');
}

/** A PEM certificate's base64 DER, as X509Certificate holds it. */
export function certificateBody(pem: string): string {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
}
