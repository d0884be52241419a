import { serviceDataKey } from '../../domain/registry/service-data.js';
import type { SamlBinding, SignatureAlgorithm } from './saml-names.js';

/** An endpoint of an SP's metadata: an AssertionConsumerService or a SingleLogoutService. */
export interface SpEndpoint {
  readonly binding: string;
  readonly location: string;
  /** An indexed endpoint's `index` (AssertionConsumerService). */
  readonly index?: number;
  readonly isDefault?: boolean;
  /** A SingleLogoutService's `ResponseLocation`, where LogoutResponses go when it differs. */
  readonly responseLocation?: string;
}

/**
 * What an SP's metadata says of it (SAML Metadata §2.4.4), as the IdP needs it: read from its
 * EntityDescriptor, trusted as the file or the signature-checked download it came from.
 */
export interface SpMetadata {
  readonly entityId: string;
  readonly assertionConsumerServices: readonly SpEndpoint[];
  readonly singleLogoutServices: readonly SpEndpoint[];
  /** PEM certificates whose keys sign the SP's requests (KeyDescriptor use="signing" or no use). */
  readonly signingCertificates: readonly string[];
  /** PEM certificates to encrypt assertions for (KeyDescriptor use="encryption" or no use). */
  readonly encryptionCertificates: readonly string[];
  /** The data encryption algorithms its encryption KeyDescriptors list (EncryptionMethod), preferred first. */
  readonly encryptionMethods: readonly string[];
  /** `AuthnRequestsSigned`: every AuthnRequest must be signed, or it is refused. */
  readonly authnRequestsSigned: boolean;
  /** `WantAssertionsSigned`: the assertions it receives are signed, whatever the definition says. */
  readonly wantAssertionsSigned: boolean;
  /** The NameID formats it lists, in its order. */
  readonly nameIdFormats: readonly string[];
  /** Epoch ms after which the metadata is no longer to be used (`validUntil`), if it says. */
  readonly validUntil?: number;
  /** Its entity attributes (`mdattr:EntityAttributes`), name → values, as its entity categories: none when absent. */
  readonly entityAttributes?: Readonly<Record<string, readonly string[]>>;
}

/**
 * How the IdP treats one SP, the part of its registered service (Apereo's SamlRegisteredService)
 * the protocol reads. The service's access strategy, second factor, consent and release are the
 * registered service's own and go through the relying-party path like any protocol's.
 */
export interface SamlServiceProviderPolicy {
  /** Sign the assertion (it is signed anyway when the SP's metadata says WantAssertionsSigned). */
  readonly signAssertions: boolean;
  /** Sign the whole Response. */
  readonly signResponses: boolean;
  /** Encrypt the assertion for the SP's encryption certificate (EncryptedAssertion). */
  readonly encryptAssertions: boolean;
  /** The one NameID format the SP gets, whatever it asks; a request asking for another is refused. */
  readonly requiredNameIdFormat?: string;
  /** The authentication context class the assertion names, instead of the one the login proved. */
  readonly requiredAuthenticationContextClass?: string;
  /** Attribute name → name format (`basic`, `uri`, `unspecified`, or a URI). */
  readonly attributeNameFormats: Readonly<Record<string, string>>;
  /** Attribute name → FriendlyName. */
  readonly attributeFriendlyNames: Readonly<Record<string, string>>;
  /** Attribute name → xsi:type of its values (`XSString`, `XSURI`, `XSBoolean`, `XSInteger`, `XSDateTime`, `XSBase64Binary`). */
  readonly attributeValueTypes: Readonly<Record<string, string>>;
  /** Seconds of clock difference allowed on the SP's IssueInstant, instead of the module's setting. */
  readonly skewAllowanceSeconds?: number;
  /** Audiences besides the SP's entity id. */
  readonly assertionAudiences: readonly string[];
  /** The issuer the SP knows the IdP by, instead of the module's entity id. */
  readonly issuerEntityId?: string;
  /** The algorithms the IdP's signatures for this SP use, the first one preferred. */
  readonly signingSignatureAlgorithms: readonly SignatureAlgorithm[];
}

/**
 * An SP as its registered definition names it, in Apereo's keys of a SamlRegisteredService: its
 * entity id (`serviceId`), where its metadata is (`metadataLocation`: a file or an https URL; with
 * `metadataSignatureLocation`, the certificate that metadata must be signed with), and its policy,
 * each key left out taking Apereo's default (samlServiceProviderPolicy). The module's codec part
 * reads a definition into this.
 */
export interface SamlServiceProviderDefinition extends Partial<SamlServiceProviderPolicy> {
  readonly serviceId: string;
  readonly metadataLocation: string;
  readonly metadataSignatureLocation?: string;
}

/** Apereo's class of an SP's registered service, the saml2 module's service type. */
export const SAML_REGISTERED_SERVICE = 'org.apereo.cas.support.saml.services.SamlRegisteredService';

/** The class as Apereo writes it, then as CAS 4.2 wrote it (org.jasig), read as the same type. */
export const SAML_REGISTERED_SERVICE_TYPES: readonly string[] = [SAML_REGISTERED_SERVICE, 'org.jasig.cas.support.saml.services.SamlRegisteredService'];

/**
 * The saml2 module's data on a registered service: the definition's SAML keys (its entity id is the
 * service's `serviceId`), each policy key held only when the definition says other than Apereo's default.
 */
export type SamlServiceProviderData = Omit<SamlServiceProviderDefinition, 'serviceId'>;

/** Where the saml2 module keeps an SP's definition on its registered service. */
export const SAML_SERVICE_PROVIDER = serviceDataKey<SamlServiceProviderData>('samlServiceProvider');

/** The policy of a definition, Apereo's defaults filled in. */
export function policyOf(definition: SamlServiceProviderData): SamlServiceProviderPolicy {
  const { serviceId: _entityId, metadataLocation: _location, metadataSignatureLocation: _signer, ...policy } = definition as SamlServiceProviderData & { readonly serviceId?: string };
  return samlServiceProviderPolicy(policy);
}

/** An SP as the IdP answers it: its metadata and its policy. */
export interface SamlServiceProvider {
  readonly metadata: SpMetadata;
  readonly policy: SamlServiceProviderPolicy;
}

/** A policy with Apereo's defaults (signed responses, unsigned and unencrypted assertions, RSA-SHA256). */
export function samlServiceProviderPolicy(overrides: Partial<SamlServiceProviderPolicy> = {}): SamlServiceProviderPolicy {
  return {
    signAssertions: false,
    signResponses: true,
    encryptAssertions: false,
    attributeNameFormats: {},
    attributeFriendlyNames: {},
    attributeValueTypes: {},
    assertionAudiences: [],
    signingSignatureAlgorithms: ['http://www.w3.org/2001/04/xmldsig-more#rsa-sha256'],
    ...overrides,
  };
}

/** Whether the assertion for this SP is signed: its definition asks, or its metadata wants it. */
export function signsAssertions(sp: SamlServiceProvider): boolean {
  return sp.policy.signAssertions || sp.metadata.wantAssertionsSigned;
}

/** What an AuthnRequest asks of where its answer goes. */
export interface AssertionConsumerServiceRequest {
  readonly url?: string;
  readonly index?: number;
  readonly binding?: string;
}

/**
 * Where the Response goes: the AssertionConsumerService of the SP's metadata that the request names
 * by URL (with its binding, if given) or by index, else the metadata's default one (isDefault, else the
 * first); only bindings tessera answers over. A URL or an index the metadata does not list is never
 * used (undefined): the request is refused, and the browser never sent there.
 */
export function assertionConsumerService(metadata: SpMetadata, request: AssertionConsumerServiceRequest, answered: readonly SamlBinding[]): SpEndpoint | undefined {
  const usable = metadata.assertionConsumerServices.filter((endpoint) => (answered as readonly string[]).includes(endpoint.binding));
  if (request.url !== undefined && request.index !== undefined) return undefined;
  if (request.url !== undefined) {
    return usable.find((endpoint) => endpoint.location === request.url && (request.binding === undefined || endpoint.binding === request.binding));
  }
  if (request.index !== undefined) return usable.find((endpoint) => endpoint.index === request.index);
  const candidates = request.binding === undefined ? usable : usable.filter((endpoint) => endpoint.binding === request.binding);
  return candidates.find((endpoint) => endpoint.isDefault === true) ?? candidates.find((endpoint) => endpoint.isDefault !== false) ?? candidates[0];
}

/** The SingleLogoutService of the SP's metadata for a binding, preferring the ones tessera answers over in `bindings`' order. */
export function singleLogoutService(metadata: SpMetadata, bindings: readonly SamlBinding[]): SpEndpoint | undefined {
  for (const binding of bindings) {
    const found = metadata.singleLogoutServices.find((endpoint) => endpoint.binding === binding);
    if (found) return found;
  }
  return undefined;
}
