import { createSign, createVerify, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { samlCredential, type SamlCredential } from '@tessera/testkit/modules/saml2';
import { SignedXml } from 'xml-crypto';
import { encrypt } from 'xml-encryption';

export const IDP_ENTITY_ID = 'https://idp.partner.example/saml2/idp';
export const IDP_SSO_URL = 'https://idp.partner.example/saml2/sso';
export const IDP_SLO_URL = 'https://idp.partner.example/saml2/slo';

/** What a LogoutRequest sent over HTTP-Redirect says. */
export interface SentLogoutRequest {
  /** Where the browser was sent. */
  readonly url: URL;
  readonly id: string;
  readonly issuer: string;
  readonly destination: string;
  readonly nameId: string;
  readonly nameIdFormat: string;
  readonly sessionIndex: string;
  readonly relayState: string;
  readonly query: URLSearchParams;
  /** The query's signature verifies with `certificate` (SAMLRequest, RelayState, SigAlg as sent, RSA-SHA256). */
  signedBy(certificate: string): boolean;
}

/** The LogoutRequest of an HTTP-Redirect URL. */
export function sentLogoutRequest(location: string): SentLogoutRequest {
  const url = new URL(location);
  const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
  const raw = url.search.slice(1).split('&');
  const field = (name: string) => raw.find((token) => token.startsWith(`${name}=`));
  return {
    url,
    id: /<samlp:LogoutRequest[^>]* ID="([^"]*)"/.exec(xml)?.[1] ?? '',
    issuer: /<saml:Issuer[^>]*>([^<]*)<\/saml:Issuer>/.exec(xml)?.[1] ?? '',
    destination: /Destination="([^"]*)"/.exec(xml)?.[1] ?? '',
    nameId: /<saml:NameID[^>]*>([^<]*)<\/saml:NameID>/.exec(xml)?.[1] ?? '',
    nameIdFormat: /<saml:NameID[^>]* Format="([^"]*)"/.exec(xml)?.[1] ?? '',
    sessionIndex: /<saml2p:SessionIndex[^>]*>([^<]*)<\/saml2p:SessionIndex>/.exec(xml)?.[1] ?? '',
    relayState: url.searchParams.get('RelayState') ?? '',
    query: url.searchParams,
    signedBy(certificate) {
      const signed = ['SAMLRequest', 'RelayState', 'SigAlg'].map(field).filter((token) => token !== undefined).join('&');
      return url.searchParams.get('SigAlg') === SIGNATURE && createVerify('RSA-SHA256').update(signed).verify(certificate, url.searchParams.get('Signature') ?? '', 'base64');
    },
  };
}

export interface LogoutResponseOptions {
  readonly inResponseTo?: string | undefined;
  readonly destination: string;
  readonly issuer?: string;
  readonly status?: string;
  /** Sign with this key instead of the IdP's. */
  readonly signer?: SamlCredential;
  /** Sign at all (the default). */
  readonly sign?: boolean;
}

/** What an AuthnRequest sent over HTTP-Redirect says. */
export interface SentRequest {
  readonly id: string;
  readonly issuer: string;
  readonly assertionConsumerServiceUrl: string;
  readonly relayState: string;
  readonly xml: string;
  readonly query: URLSearchParams;
}

/** The AuthnRequest of an HTTP-Redirect URL (DEFLATE, base64). */
export function sentRequest(location: string): SentRequest {
  const url = new URL(location);
  const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
  const attribute = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(xml)?.[1] ?? '';
  return {
    id: attribute('ID'),
    issuer: /<saml:Issuer[^>]*>([^<]*)<\/saml:Issuer>/.exec(xml)?.[1] ?? '',
    assertionConsumerServiceUrl: attribute('AssertionConsumerServiceURL'),
    relayState: url.searchParams.get('RelayState') ?? '',
    xml,
    query: url.searchParams,
  };
}

export interface ResponseOptions {
  readonly inResponseTo?: string | undefined;
  readonly destination: string;
  readonly audience: string;
  readonly nameId: string;
  readonly attributes?: Readonly<Record<string, readonly string[]>>;
  readonly issuer?: string;
  /** When the assertion was made; validity runs five minutes from it. */
  readonly now?: number;
  readonly signAssertion?: boolean;
  readonly signResponse?: boolean;
  /** Sign with this key instead of the IdP's. */
  readonly signer?: SamlCredential;
  readonly status?: string;
  readonly sessionIndex?: string;
}

const escape = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('"', '&quot;');
const id = () => `_${randomBytes(16).toString('hex')}`;
const SIGNATURE = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';

/**
 * A scripted SAML 2 identity provider: its key, its metadata in a file, and Responses made as a real
 * IdP makes them (signed with xml-crypto, enveloped, exclusive C14N, RSA-SHA256), or made wrong on purpose.
 */
export class ScriptedIdp {
  private constructor(
    readonly credential: SamlCredential,
    readonly metadataFile: string,
  ) {}

  /** An IdP with its metadata in `folder`; `singleLogout`: it has a SingleLogoutService over HTTP-Redirect (the default). */
  static async create(folder: string, { singleLogout = true }: { readonly singleLogout?: boolean } = {}): Promise<ScriptedIdp> {
    const credential = await samlCredential('CN=scripted idp');
    const metadataFile = join(folder, singleLogout ? 'idp-metadata.xml' : 'idp-metadata-without-logout.xml');
    const certificate = credential.certificate.replace(/-----[A-Z ]+-----|\s/g, '');
    writeFileSync(
      metadataFile,
      `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${IDP_ENTITY_ID}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certificate}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
${singleLogout ? `    <md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${IDP_SLO_URL}"/>\n` : ''}    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${IDP_SSO_URL}/post"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${IDP_SSO_URL}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>
`,
    );
    return new ScriptedIdp(credential, metadataFile);
  }

  /** A Response, base64 as the HTTP-POST binding carries it. */
  response(options: ResponseOptions): string {
    const now = options.now ?? Date.now();
    const instant = (offsetMs: number) => new Date(now + offsetMs).toISOString().replace(/\.\d+Z$/, 'Z');
    const issuer = escape(options.issuer ?? IDP_ENTITY_ID);
    const inResponseTo = options.inResponseTo === undefined ? '' : ` InResponseTo="${escape(options.inResponseTo)}"`;
    const status = options.status ?? 'urn:oasis:names:tc:SAML:2.0:status:Success';
    const attributes = Object.entries(options.attributes ?? {})
      .map(([name, values]) => `<saml:Attribute Name="${escape(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">${values.map((value) => `<saml:AttributeValue xsi:type="xs:string">${escape(value)}</saml:AttributeValue>`).join('')}</saml:Attribute>`)
      .join('');
    const assertion =
      status !== 'urn:oasis:names:tc:SAML:2.0:status:Success'
        ? ''
        : `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ID="${id()}" Version="2.0" IssueInstant="${instant(0)}"><saml:Issuer>${issuer}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent">${escape(options.nameId)}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData${inResponseTo} NotOnOrAfter="${instant(300_000)}" Recipient="${escape(options.destination)}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${instant(-30_000)}" NotOnOrAfter="${instant(300_000)}"><saml:AudienceRestriction><saml:Audience>${escape(options.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${instant(0)}" SessionIndex="${escape(options.sessionIndex ?? id())}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement><saml:AttributeStatement>${attributes}</saml:AttributeStatement></saml:Assertion>`;
    const signer = options.signer ?? this.credential;
    const signedAssertion = assertion !== '' && (options.signAssertion ?? true) ? sign(assertion, 'Assertion', signer) : assertion;
    let response = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id()}" Version="2.0" IssueInstant="${instant(0)}" Destination="${escape(options.destination)}"${inResponseTo}><saml:Issuer>${issuer}</saml:Issuer><samlp:Status><samlp:StatusCode Value="${status}"/></samlp:Status>${signedAssertion}</samlp:Response>`;
    if (options.signResponse === true) response = sign(response, 'Response', signer);
    return Buffer.from(response, 'utf8').toString('base64');
  }

  /**
   * The same Response with its (signed) assertion encrypted for `certificate` as tessera's own IdP
   * encrypts (xml-encryption: AES-256-GCM for the data, RSA-OAEP for the key), in an EncryptedAssertion.
   */
  async encryptedResponse(options: ResponseOptions, certificate: string): Promise<string> {
    const xml = Buffer.from(this.response(options), 'base64').toString('utf8');
    const assertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)?.[0] ?? '';
    const encrypted = await new Promise<string>((resolve, reject) => {
      encrypt(
        assertion,
        { rsa_pub: certificate, pem: certificate, encryptionAlgorithm: 'http://www.w3.org/2009/xmlenc11#aes256-gcm', keyEncryptionAlgorithm: 'http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p', disallowEncryptionWithInsecureAlgorithm: true },
        (error, result) => (error ? reject(error) : resolve(result)),
      );
    });
    return Buffer.from(xml.replace(assertion, `<saml:EncryptedAssertion>${encrypted}</saml:EncryptedAssertion>`), 'utf8').toString('base64');
  }

  /** A LogoutResponse's XML, signed (enveloped) or not. */
  logoutResponse(options: LogoutResponseOptions, enveloped: boolean): string {
    const inResponseTo = options.inResponseTo === undefined ? '' : ` InResponseTo="${escape(options.inResponseTo)}"`;
    const response = `<samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id()}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${escape(options.destination)}"${inResponseTo}><saml:Issuer>${escape(options.issuer ?? IDP_ENTITY_ID)}</saml:Issuer><samlp:Status><samlp:StatusCode Value="${options.status ?? 'urn:oasis:names:tc:SAML:2.0:status:Success'}"/></samlp:Status></samlp:LogoutResponse>`;
    return enveloped && (options.sign ?? true) ? sign(response, 'LogoutResponse', options.signer ?? this.credential) : response;
  }

  /** A LogoutResponse as the HTTP-POST binding carries it: base64 of the signed XML. */
  postedLogoutResponse(options: LogoutResponseOptions): string {
    return Buffer.from(this.logoutResponse(options, true), 'utf8').toString('base64');
  }

  /** The URL the HTTP-Redirect binding sends the browser back to: the LogoutResponse deflated, the RelayState, the query signed (RSA-SHA256). */
  redirectedLogoutResponse(options: LogoutResponseOptions, relayState: string): string {
    const encoded = deflateRawSync(Buffer.from(this.logoutResponse(options, false), 'utf8')).toString('base64');
    const signed = `SAMLResponse=${encodeURIComponent(encoded)}&RelayState=${encodeURIComponent(relayState)}&SigAlg=${encodeURIComponent(SIGNATURE)}`;
    if (options.sign === false) return `${options.destination}?SAMLResponse=${encodeURIComponent(encoded)}&RelayState=${encodeURIComponent(relayState)}`;
    const signature = createSign('RSA-SHA256').update(signed).sign((options.signer ?? this.credential).privateKey, 'base64');
    return `${options.destination}?${signed}&Signature=${encodeURIComponent(signature)}`;
  }
}

/** `xml` with an enveloped signature over its root element `local` (after its Issuer, as the schema places it). */
function sign(xml: string, local: string, signer: SamlCredential): string {
  const signature = new SignedXml({ privateKey: signer.privateKey, publicCert: signer.certificate, signatureAlgorithm: SIGNATURE, canonicalizationAlgorithm: C14N });
  signature.addReference({ xpath: `/*[local-name(.)='${local}']`, transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', C14N], digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256' });
  signature.computeSignature(xml, { location: { reference: `/*[local-name(.)='${local}']/*[local-name(.)='Issuer']`, action: 'after' } });
  return signature.getSignedXml();
}
