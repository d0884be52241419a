import { encrypt, type EncryptionAlgorithm } from 'xml-encryption';
import { signsAssertions, STATUS, type AssertionContent, type SamlServiceProvider, type SignatureAlgorithm, type StatusResponseContent } from '@tessera/core/modules/saml2';
import { XmlBuilder } from './xml-builder.js';
import { signEnveloped, type SigningCredential } from './xml-signature.js';
import { NS, parseXml, serialize, writeInstant } from './xml.js';

/** How the Response for one SP is protected. */
export interface ResponseProtection {
  readonly credential: SigningCredential;
  readonly algorithm: SignatureAlgorithm;
  readonly signAssertion: boolean;
  readonly signResponse: boolean;
  /** Encrypt the assertion for this certificate (PEM), with the data algorithm given. */
  readonly encryptFor?: { readonly certificate: string; readonly algorithm: string };
}

/** The data encryption algorithms tessera encrypts assertions with: AES-GCM only (CBC has no integrity). */
export const DATA_ENCRYPTION_ALGORITHMS = ['http://www.w3.org/2009/xmlenc11#aes256-gcm', 'http://www.w3.org/2009/xmlenc11#aes128-gcm'] as const;

/** An SP whose definition asks for something its metadata cannot give (encryption without an encryption certificate). */
export class ProtectionUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'ProtectionUnavailableError';
  }
}

/**
 * How the Response for an SP is protected, from its definition and its metadata: the first of its
 * `signingSignatureAlgorithms`; the assertion signed when `signAssertions` or WantAssertionsSigned, the
 * response when `signResponses`; with `encryptAssertions`, encrypted for the first encryption
 * certificate of its metadata with the first data algorithm its metadata lists (its preference) that
 * tessera encrypts with (AES-256-GCM when it lists none). Encryption asked of an SP with no encryption certificate, or
 * only algorithms tessera does not encrypt with, is refused rather than sent in the clear.
 */
export function responseProtection(sp: SamlServiceProvider, credential: SigningCredential): ResponseProtection {
  const { policy, metadata } = sp;
  const base = { credential, algorithm: policy.signingSignatureAlgorithms[0] ?? 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256', signAssertion: signsAssertions(sp), signResponse: policy.signResponses } as const;
  if (!policy.encryptAssertions) return base;
  const certificate = metadata.encryptionCertificates[0];
  if (certificate === undefined) throw new ProtectionUnavailableError(`${metadata.entityId} asks for encrypted assertions, and its metadata has no encryption certificate`);
  const listed = metadata.encryptionMethods.filter((method) => !method.includes('rsa'));
  const algorithm = listed.length === 0 ? DATA_ENCRYPTION_ALGORITHMS[0] : listed.find((method) => (DATA_ENCRYPTION_ALGORITHMS as readonly string[]).includes(method));
  if (algorithm === undefined) throw new ProtectionUnavailableError(`${metadata.entityId} lists no data encryption algorithm tessera encrypts with (${DATA_ENCRYPTION_ALGORITHMS.join(', ')})`);
  return { ...base, encryptFor: { certificate, algorithm } };
}

/** The largest document tessera reads back of its own making (an assertion with many attributes). */
const OWN_DOCUMENT_BYTES = 4 * 1024 * 1024;

/** The saml:Assertion of a Response, as text (SAML Core §2.3.3; Profiles §4.1.4.2 for what a browser SSO assertion holds). */
export function assertionXml(content: AssertionContent): string {
  const xml = new XmlBuilder(NS.saml, 'Assertion');
  const { root } = xml;
  const saml = (name: string, attributes: Readonly<Record<string, string | undefined>> = {}, children: readonly (Element | string | undefined | false)[] = []) => xml.element(NS.saml, name, attributes, children);
  xml.declare(root, NS.xs);
  xml.declare(root, NS.xsi);
  const { nameId, subjectConfirmation, conditions, authnStatement } = content;
  xml.fill(root, { ID: content.assertionId, Version: '2.0', IssueInstant: writeInstant(content.issueInstant) }, [
    saml('Issuer', {}, [content.issuer]),
    saml('Subject', {}, [
      saml('NameID', { Format: nameId.format, NameQualifier: nameId.nameQualifier, SPNameQualifier: nameId.spNameQualifier }, [nameId.value]),
      saml('SubjectConfirmation', { Method: subjectConfirmation.method }, [
        saml('SubjectConfirmationData', { NotOnOrAfter: writeInstant(subjectConfirmation.notOnOrAfter), Recipient: subjectConfirmation.recipient, InResponseTo: subjectConfirmation.inResponseTo }),
      ]),
    ]),
    saml('Conditions', { NotBefore: writeInstant(conditions.notBefore), NotOnOrAfter: writeInstant(conditions.notOnOrAfter) }, [
      saml('AudienceRestriction', {}, conditions.audiences.map((audience) => saml('Audience', {}, [audience]))),
    ]),
    saml('AuthnStatement', { AuthnInstant: writeInstant(authnStatement.authnInstant), SessionIndex: authnStatement.sessionIndex }, [
      saml('AuthnContext', {}, [saml('AuthnContextClassRef', {}, [authnStatement.contextClassRef])]),
    ]),
    content.attributes.length > 0 &&
      saml(
        'AttributeStatement',
        {},
        content.attributes.map((attribute) =>
          saml(
            'Attribute',
            { Name: attribute.name, NameFormat: attribute.nameFormat, FriendlyName: attribute.friendlyName },
            attribute.values.map((value) => {
              const element = saml('AttributeValue', {}, [value]);
              if (attribute.valueType !== undefined) element.setAttributeNS(NS.xsi, 'xsi:type', attribute.valueType);
              return element;
            }),
          ),
        ),
      ),
  ]);
  return serialize(xml.document);
}

/**
 * The samlp:Response carrying the assertion (SAML Core §3.2.2, §3.3.3): the assertion signed when the
 * SP asks (before it is encrypted, so the signature is inside what only the SP can read), encrypted
 * for the SP's certificate when its definition asks (EncryptedAssertion), then the Response signed
 * when the SP asks. A signature is enveloped, after the Issuer of what it signs.
 */
export async function responseXml(content: AssertionContent, protection: ResponseProtection): Promise<string> {
  let assertion = assertionXml(content);
  if (protection.signAssertion) assertion = signEnveloped(assertion, content.assertionId, protection.credential, protection.algorithm);
  const xml = new XmlBuilder(NS.samlp, 'Response');
  const { root } = xml;
  xml.declare(root, NS.saml);
  xml.fill(root, { ID: content.responseId, Version: '2.0', IssueInstant: writeInstant(content.issueInstant), Destination: content.destination, InResponseTo: content.inResponseTo }, [
    xml.element(NS.saml, 'Issuer', {}, [content.issuer]),
    xml.element(NS.samlp, 'Status', {}, [xml.element(NS.samlp, 'StatusCode', { Value: STATUS.success })]),
  ]);
  if (protection.encryptFor !== undefined) {
    const encrypted = await encryptXml(assertion, protection.encryptFor.certificate, protection.encryptFor.algorithm);
    const holder = xml.element(NS.saml, 'EncryptedAssertion');
    holder.appendChild(xml.document.importNode(parseXml(encrypted, OWN_DOCUMENT_BYTES).documentElement, true));
    root.appendChild(holder);
  } else {
    root.appendChild(xml.document.importNode(parseXml(assertion, OWN_DOCUMENT_BYTES).documentElement, true));
  }
  const response = serialize(xml.document);
  return protection.signResponse ? signEnveloped(response, content.responseId, protection.credential, protection.algorithm) : response;
}

/** A Response that refuses (no assertion), signed when the SP's definition signs responses. */
export function statusResponseXml(content: StatusResponseContent, signing?: { readonly credential: SigningCredential; readonly algorithm: SignatureAlgorithm }): string {
  const xml = new XmlBuilder(NS.samlp, 'Response');
  const { root } = xml;
  xml.declare(root, NS.saml);
  const subStatus = content.subStatus === undefined ? undefined : xml.element(NS.samlp, 'StatusCode', { Value: content.subStatus });
  xml.fill(root, { ID: content.responseId, Version: '2.0', IssueInstant: writeInstant(content.issueInstant), Destination: content.destination, InResponseTo: content.inResponseTo }, [
    xml.element(NS.saml, 'Issuer', {}, [content.issuer]),
    xml.element(NS.samlp, 'Status', {}, [
      xml.element(NS.samlp, 'StatusCode', { Value: content.status }, [subStatus]),
      content.message !== undefined && xml.element(NS.samlp, 'StatusMessage', {}, [content.message]),
    ]),
  ]);
  const response = serialize(xml.document);
  return signing === undefined ? response : signEnveloped(response, content.responseId, signing.credential, signing.algorithm);
}

/** XML Encryption of an element for a certificate's key: AES-GCM for the data, RSA-OAEP for the key. */
function encryptXml(xml: string, certificate: string, algorithm: string): Promise<string> {
  return new Promise((resolve, reject) => {
    encrypt(
      xml,
      {
        rsa_pub: certificate,
        pem: certificate,
        encryptionAlgorithm: algorithm as EncryptionAlgorithm,
        keyEncryptionAlgorithm: 'http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p',
        disallowEncryptionWithInsecureAlgorithm: true,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}
