import type { InvalidServiceDefinitionError, ServiceDefinitionProblem } from '@tessera/core';
import {
  ATTRIBUTE_NAME_FORMAT,
  ATTRIBUTE_VALUE_TYPES,
  isSignatureAlgorithm,
  isSupportedNameIdFormat,
  NAME_ID_FORMAT,
  SAML_REGISTERED_SERVICE_TYPES,
  SAML_SERVICE_PROVIDER,
  SIGNATURE_ALGORITHMS,
  SUPPORTED_NAME_ID_FORMATS,
  type SamlServiceProviderData,
  type SignatureAlgorithm,
} from '@tessera/core/modules/saml2';
import { z } from 'zod';
import { isEmptyCollection, isRecord, type KeyRules, type Unsupported } from '../../services/codecs/cas-service-keys.js';
import { javaInteger, javaList, stringList } from '../../services/codecs/java-collections.js';
import type { ServiceTypeCodec } from '../../services/codecs/module-service-keys.js';
import { partReader, throwAll } from '../../services/codecs/parse-parts.js';

type Fail = (field: string, problem: string) => InvalidServiceDefinitionError;

/** The keys of a SamlRegisteredService that tessera reads, beside those of every service. */
const READ = [
  'metadataLocation',
  'metadataSignatureLocation',
  'signAssertions',
  'signResponses',
  'encryptAssertions',
  'requiredNameIdFormat',
  'requiredAuthenticationContextClass',
  'attributeNameFormats',
  'attributeFriendlyNames',
  'attributeValueTypes',
  'skewAllowance',
  'assertionAudiences',
  'issuerEntityId',
  'signingSignatureAlgorithms',
];

const is = (expected: unknown) => (value: unknown) => value === expected || (typeof expected === 'boolean' && typeof value === 'string' && value.toLowerCase() === String(expected));
const emptyList = { when: (value: unknown) => isEmptyCollection(value) || (typeof value === 'string' && value === ''), as: 'an empty list' };
const ONE_ENTITY = "tessera reads the one EntityDescriptor of the serviceId from metadataLocation: give each SP of an aggregate its own definition";
const ONE_KEY = "every response is signed with the IdP's current signing key (saml2.keys), which its metadata publishes";
const OWN_CRYPTO = 'assertions are encrypted with AES-GCM (the first the metadata lists) for the key RSA-OAEP wraps, never a weaker choice';
const ALWAYS_WRITTEN = 'tessera writes every part of a browser SSO assertion a strict SP checks';

/** Apereo's SamlRegisteredService keys tessera does not have, each with what it does instead (accepted where the value asks for that). */
const UNSUPPORTED: Readonly<Record<string, Unsupported>> = {
  idpMetadataLocation: { instead: "the IdP's metadata is tessera's own, at /idp/metadata" },
  metadataProxyLocation: { instead: 'metadata is fetched directly from an https metadataLocation' },
  metadataMaxValidity: { instead: "metadata is used while its own validUntil allows", accepted: { when: (value) => javaInteger(value) === 0, as: '0' } },
  metadataExpirationDuration: { instead: 'fetched metadata is kept for saml2.metadataCacheSeconds (less when it says cacheDuration or validUntil)', accepted: { when: is('PT60M'), as: 'PT60M' } },
  metadataCriteriaPattern: { instead: ONE_ENTITY },
  metadataCriteriaDirection: { instead: ONE_ENTITY, accepted: { when: is('INCLUDE'), as: 'INCLUDE' } },
  metadataCriteriaRoles: { instead: ONE_ENTITY, accepted: { when: is('SPSSODescriptor'), as: 'SPSSODescriptor' } },
  metadataCriteriaEntityAttributes: { instead: ONE_ENTITY, accepted: { when: isEmptyCollection, as: 'an empty map' } },
  metadataCriteriaRemoveEmptyEntitiesDescriptors: { instead: ONE_ENTITY, accepted: { when: is(true), as: 'true' } },
  metadataCriteriaRemoveRolelessEntityDescriptors: { instead: ONE_ENTITY, accepted: { when: is(true), as: 'true' } },
  requireSignedRoot: { instead: 'metadata with metadataSignatureLocation must be signed at its root', accepted: { when: is(true), as: 'true' } },
  logoutResponseEnabled: { instead: "an SP's LogoutRequest is always answered", accepted: { when: is(true), as: 'true' } },
  logoutResponseBinding: { instead: 'a LogoutResponse goes back over the binding of the SP metadata SingleLogoutService tessera answers over (HTTP-Redirect first)' },
  signLogoutRequest: { instead: 'every LogoutRequest tessera sends is signed', accepted: { when: (value) => is(true)(value) || is('UNDEFINED')(value), as: 'true or UNDEFINED' } },
  signLogoutResponse: { instead: 'every LogoutResponse tessera sends is signed', accepted: { when: (value) => is(true)(value) || is('UNDEFINED')(value), as: 'true or UNDEFINED' } },
  signUnsolicitedAuthnRequest: { instead: 'an unsolicited SSO request is not signed: the SP is answered only at an AssertionConsumerService of its metadata', accepted: { when: is(false), as: 'false' } },
  encryptAttributes: { instead: 'the whole assertion is encrypted with encryptAssertions', accepted: { when: is(false), as: 'false' } },
  encryptableAttributes: { instead: 'the whole assertion is encrypted with encryptAssertions', accepted: emptyList },
  encryptionOptional: { instead: 'an SP asking for encryption without an encryption certificate is refused, never answered in the clear', accepted: { when: is(false), as: 'false' } },
  encryptionDataAlgorithms: { instead: OWN_CRYPTO, accepted: emptyList },
  encryptionKeyAlgorithms: { instead: OWN_CRYPTO, accepted: emptyList },
  encryptionBlackListedAlgorithms: { instead: OWN_CRYPTO, accepted: emptyList },
  encryptionWhiteListedAlgorithms: { instead: OWN_CRYPTO, accepted: emptyList },
  signingCredentialFingerprint: { instead: ONE_KEY },
  signingCredentialType: { instead: ONE_KEY, accepted: { when: is('BASIC'), as: 'BASIC' } },
  signingKeyAlgorithm: { instead: ONE_KEY, accepted: { when: is('RSA'), as: 'RSA' } },
  signingSignatureReferenceDigestMethods: { instead: 'signatures digest with the SHA-2 of their signing algorithm', accepted: emptyList },
  signingSignatureBlackListedAlgorithms: { instead: 'signingSignatureAlgorithms names what is used; SHA-1 never is', accepted: emptyList },
  signingSignatureWhiteListedAlgorithms: { instead: 'signingSignatureAlgorithms names what is used; SHA-1 never is', accepted: emptyList },
  signingSignatureCanonicalizationAlgorithm: { instead: 'signatures use exclusive canonicalization', accepted: { when: is('http://www.w3.org/2001/10/xml-exc-c14n#'), as: 'http://www.w3.org/2001/10/xml-exc-c14n#' } },
  whiteListBlackListPrecedence: { instead: 'signingSignatureAlgorithms names what is used', accepted: { when: is('INCLUDE'), as: 'INCLUDE' } },
  nameIdQualifier: { instead: 'the NameID names no NameQualifier' },
  serviceProviderNameIdQualifier: { instead: "a persistent NameID's SPNameQualifier is the SP's entity id" },
  subjectLocality: { instead: 'the AuthnStatement names no SubjectLocality' },
  skipGeneratingAssertionNameId: { instead: ALWAYS_WRITTEN, accepted: { when: is(false), as: 'false' } },
  skipGeneratingSubjectConfirmationInResponseTo: { instead: ALWAYS_WRITTEN, accepted: { when: is(false), as: 'false' } },
  isSkipGeneratingResponseInResponseTo: { instead: ALWAYS_WRITTEN, accepted: { when: is(false), as: 'false' } },
  skipGeneratingResponseInResponseTo: { instead: ALWAYS_WRITTEN, accepted: { when: is(false), as: 'false' } },
  skipGeneratingSubjectConfirmationNotOnOrAfter: { instead: ALWAYS_WRITTEN, accepted: { when: is(false), as: 'false' } },
  skipGeneratingSubjectConfirmationRecipient: { instead: ALWAYS_WRITTEN, accepted: { when: is(false), as: 'false' } },
  skipGeneratingSubjectConfirmationAddress: { instead: 'SubjectConfirmationData names no Address', accepted: { when: is(true), as: 'true' } },
  skipGeneratingSubjectConfirmationNotBefore: { instead: 'SubjectConfirmationData names no NotBefore (the Conditions do)', accepted: { when: is(true), as: 'true' } },
  skipGeneratingSubjectConfirmationNameId: { instead: 'SubjectConfirmation names no NameID of its own', accepted: { when: is(true), as: 'true' } },
  skipGeneratingNameIdQualifiers: { instead: ALWAYS_WRITTEN, accepted: { when: is(false), as: 'false' } },
  skipGeneratingTransientNameId: { instead: 'a transient NameID is a fresh random id per assertion', accepted: { when: is(false), as: 'false' } },
  skipValidatingAuthnRequest: { instead: 'every AuthnRequest is checked (signature, destination, time, replay)', accepted: { when: is(false), as: 'false' } },
  skipGeneratingServiceProviderNameIdQualifier: { instead: ALWAYS_WRITTEN, accepted: { when: is(false), as: 'false' } },
  skipGeneratingAuthenticatingAuthority: { instead: 'the AuthnStatement names no AuthenticatingAuthority', accepted: { when: is(true), as: 'true' } },
  skipGeneratingNameIdQualifier: { instead: ALWAYS_WRITTEN, accepted: { when: is(false), as: 'false' } },
  skipGeneratingSessionNotOnOrAfter: { instead: 'the AuthnStatement names no SessionNotOnOrAfter', accepted: { when: is(true), as: 'true' } },
};

const KEYS: KeyRules = { read: READ, unsupported: UNSUPPORTED };

/** Apereo's short names of NameID formats, beside the URIs. */
const NAME_ID_SHORT_NAMES: Readonly<Record<string, string>> = {
  persistent: NAME_ID_FORMAT.persistent,
  transient: NAME_ID_FORMAT.transient,
  emailAddress: NAME_ID_FORMAT.email,
  email: NAME_ID_FORMAT.email,
  unspecified: NAME_ID_FORMAT.unspecified,
};

/** A Spring expression (anywhere: `file:${#env['PWD']}/...`) or a classpath resource names something of the machine the file was written for. */
const MACHINE_BOUND = /\$\{|^\s*classpath:/;

/** A TriStateBoolean as Jackson reads it: true, false, or their strings; `UNDEFINED` (or null) the default. */
function triState(value: unknown, key: string, fail: Fail): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false|undefined)$/i.test(value)) return value.toLowerCase() === 'undefined' ? undefined : value.toLowerCase() === 'true';
  throw fail(key, 'must be true, false, or UNDEFINED');
}

function location(value: unknown, key: string, fail: Fail, httpsAllowed: boolean): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw fail(key, httpsAllowed ? 'must be a file path or an https URL' : 'must be a file path');
  if (MACHINE_BOUND.test(value)) throw fail(key, 'names a Spring expression or classpath resource of the machine it was written for: give a file path of this machine' + (httpsAllowed ? ' or an https URL' : ''));
  if (httpsAllowed && /\{0\}/.test(value)) throw fail(key, "is a metadata query (MDQ) URL template: tessera reads one SP's metadata from a file or an https URL");
  if (/^https:\/\//i.test(value)) {
    if (!httpsAllowed) throw fail(key, 'must be a file path holding the PEM certificate the metadata is signed with');
    return value;
  }
  if (/^http:\/\//i.test(value)) throw fail(key, 'is a plain http URL, which anyone on the way could change: use https, or save the metadata as a file');
  if (/^[a-z][a-z0-9+.-]*:/i.test(value) && !/^file:/i.test(value)) throw fail(key, httpsAllowed ? 'must be a file path or an https URL' : 'must be a file path');
  return value;
}

/** A map of attribute names to strings, plain or as CAS writes one (`{"@class": "java.util.TreeMap", ...}`). */
function stringMap(value: unknown, key: string, fail: Fail, check?: (entry: string) => string | undefined): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) throw fail(key, 'must be a map of attribute names to strings');
  const entries = Object.entries(value).filter(([name]) => name !== '@class');
  const map: Record<string, string> = {};
  for (const [name, entry] of entries) {
    if (typeof entry !== 'string' || entry === '') throw fail(`${key}.${name}`, 'must be a non-empty string');
    const problem = check?.(entry);
    if (problem !== undefined) throw fail(`${key}.${name}`, problem);
    map[name] = entry;
  }
  return entries.length === 0 ? undefined : map;
}

const NAME_FORMAT_SHORT: readonly string[] = Object.keys(ATTRIBUTE_NAME_FORMAT);

/**
 * An SP's definition: Apereo's SamlRegisteredService keys, each checked and every problem said at once;
 * a policy key is kept only when it says other than Apereo's default.
 */
function parseServiceProvider(json: Readonly<Record<string, unknown>>, fail: Fail): SamlServiceProviderData {
  const problems: ServiceDefinitionProblem[] = [];
  const part = partReader(problems);
  const metadataLocation = part(() => {
    const value = location(json['metadataLocation'], 'metadataLocation', fail, true);
    if (value === undefined) throw fail('metadataLocation', "is required: the SP's metadata, a file path or an https URL");
    return value;
  });
  const metadataSignatureLocation = part(() => location(json['metadataSignatureLocation'], 'metadataSignatureLocation', fail, false));
  const signAssertions = part(() => triState(json['signAssertions'], 'signAssertions', fail));
  const signResponses = part(() => triState(json['signResponses'], 'signResponses', fail));
  const encryptAssertions = part(() => triState(json['encryptAssertions'], 'encryptAssertions', fail));
  const requiredNameIdFormat = part(() => {
    const value = json['requiredNameIdFormat'] ?? undefined;
    if (value === undefined || value === '') return undefined;
    const format = typeof value === 'string' ? (NAME_ID_SHORT_NAMES[value] ?? value) : undefined;
    if (format === undefined || !isSupportedNameIdFormat(format)) throw fail('requiredNameIdFormat', `must be a NameID format tessera issues: ${SUPPORTED_NAME_ID_FORMATS.join(', ')}`);
    return format;
  });
  const requiredAuthenticationContextClass = part(() => {
    const value = json['requiredAuthenticationContextClass'] ?? undefined;
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string' || MACHINE_BOUND.test(value)) throw fail('requiredAuthenticationContextClass', 'must be an authentication context class URI');
    return value;
  });
  const attributeNameFormats = part(() =>
    stringMap(json['attributeNameFormats'], 'attributeNameFormats', fail, (format) => (NAME_FORMAT_SHORT.includes(format) || /^urn:|^https?:\/\//.test(format) ? undefined : `must be ${NAME_FORMAT_SHORT.join(', ')} or a URI`)),
  );
  const attributeFriendlyNames = part(() => stringMap(json['attributeFriendlyNames'], 'attributeFriendlyNames', fail));
  const attributeValueTypes = part(() => stringMap(json['attributeValueTypes'], 'attributeValueTypes', fail, (type) => (ATTRIBUTE_VALUE_TYPES.includes(type) ? undefined : `must be one of ${ATTRIBUTE_VALUE_TYPES.join(', ')}`)));
  const skewAllowanceSeconds = part(() => {
    const value = json['skewAllowance'] ?? undefined;
    if (value === undefined) return undefined;
    const seconds = javaInteger(value);
    if (seconds === undefined || seconds < 0 || seconds > 3600) throw fail('skewAllowance', 'must be a number of seconds from 0 to 3600 (0: the saml2.skewSeconds setting)');
    return seconds === 0 ? undefined : seconds;
  });
  const assertionAudiences = part(() => {
    const value = json['assertionAudiences'] ?? undefined;
    if (value === undefined || value === '') return undefined;
    const audiences = typeof value === 'string' ? value.split(',').map((audience) => audience.trim()).filter((audience) => audience !== '') : stringList(value);
    if (audiences === undefined) throw fail('assertionAudiences', 'must be audiences separated by commas');
    return audiences.length === 0 ? undefined : audiences;
  });
  const issuerEntityId = part(() => {
    const value = json['issuerEntityId'] ?? undefined;
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string' || MACHINE_BOUND.test(value)) throw fail('issuerEntityId', 'must be the entity id the SP knows the IdP by');
    return value;
  });
  const signingSignatureAlgorithms = part(() => {
    const value = json['signingSignatureAlgorithms'] ?? undefined;
    if (value === undefined) return undefined;
    const algorithms = stringList(value);
    if (algorithms === undefined) throw fail('signingSignatureAlgorithms', 'must be a list of signature algorithm URIs');
    if (algorithms.length === 0) return undefined;
    const refused = algorithms.find((algorithm) => !isSignatureAlgorithm(algorithm));
    if (refused !== undefined) throw fail('signingSignatureAlgorithms', `holds ${refused}; tessera signs with ${SIGNATURE_ALGORITHMS.join(', ')} (SHA-1 is broken for signatures)`);
    return algorithms as SignatureAlgorithm[];
  });
  throwAll(problems);
  return {
    metadataLocation: metadataLocation!,
    ...(metadataSignatureLocation !== undefined && { metadataSignatureLocation }),
    ...(signAssertions === true && { signAssertions }),
    ...(signResponses === false && { signResponses }),
    ...(encryptAssertions === true && { encryptAssertions }),
    ...(requiredNameIdFormat !== undefined && { requiredNameIdFormat }),
    ...(requiredAuthenticationContextClass !== undefined && { requiredAuthenticationContextClass }),
    ...(attributeNameFormats !== undefined && { attributeNameFormats }),
    ...(attributeFriendlyNames !== undefined && { attributeFriendlyNames }),
    ...(attributeValueTypes !== undefined && { attributeValueTypes }),
    ...(skewAllowanceSeconds !== undefined && { skewAllowanceSeconds }),
    ...(assertionAudiences !== undefined && { assertionAudiences }),
    ...(issuerEntityId !== undefined && { issuerEntityId }),
    ...(signingSignatureAlgorithms !== undefined && { signingSignatureAlgorithms }),
  };
}

/** The SP's keys as Apereo writes them, only those not at their default. */
function renderServiceProvider(sp: SamlServiceProviderData): Record<string, unknown> {
  const map = (entries: Readonly<Record<string, string>> | undefined) => (entries === undefined ? undefined : { '@class': 'java.util.TreeMap', ...entries });
  return {
    metadataLocation: sp.metadataLocation,
    ...(sp.metadataSignatureLocation !== undefined && { metadataSignatureLocation: sp.metadataSignatureLocation }),
    ...(sp.signAssertions === true && { signAssertions: true }),
    ...(sp.signResponses === false && { signResponses: false }),
    ...(sp.encryptAssertions === true && { encryptAssertions: true }),
    ...(sp.requiredNameIdFormat !== undefined && { requiredNameIdFormat: sp.requiredNameIdFormat }),
    ...(sp.requiredAuthenticationContextClass !== undefined && { requiredAuthenticationContextClass: sp.requiredAuthenticationContextClass }),
    ...(sp.attributeNameFormats !== undefined && { attributeNameFormats: map(sp.attributeNameFormats) }),
    ...(sp.attributeFriendlyNames !== undefined && { attributeFriendlyNames: map(sp.attributeFriendlyNames) }),
    ...(sp.attributeValueTypes !== undefined && { attributeValueTypes: map(sp.attributeValueTypes) }),
    ...(sp.skewAllowanceSeconds !== undefined && { skewAllowance: sp.skewAllowanceSeconds }),
    ...(sp.assertionAudiences !== undefined && { assertionAudiences: sp.assertionAudiences.join(',') }),
    ...(sp.issuerEntityId !== undefined && { issuerEntityId: sp.issuerEntityId }),
    ...(sp.signingSignatureAlgorithms !== undefined && { signingSignatureAlgorithms: javaList(sp.signingSignatureAlgorithms) }),
  };
}

const DOCUMENTED: Readonly<Record<string, z.ZodType>> = {
  metadataLocation: z.string().meta({ description: "With SamlRegisteredService (the saml2 module): the SP's metadata, a file path or an https URL." }),
  metadataSignatureLocation: z.string().meta({ description: 'With SamlRegisteredService: a file holding the PEM certificate the metadata must be signed with.' }),
};

/** Apereo's SamlRegisteredService: a SAML 2.0 service provider, found by its entity id (the serviceId), never by a CAS service URL. */
export const samlServiceProviderType: ServiceTypeCodec<SamlServiceProviderData> = {
  classes: SAML_REGISTERED_SERVICE_TYPES,
  matchedByServiceUrl: false,
  data: SAML_SERVICE_PROVIDER,
  keys: KEYS,
  protocols: ['SAML2'],
  documented: DOCUMENTED,
  parse: parseServiceProvider,
  render: renderServiceProvider,
};
