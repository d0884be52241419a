import * as pkijs from 'pkijs';
import type { CertificateSource, X509Credential } from './credential.js';
import type { CertificateDetails } from './certificate-validator.js';
import { ldapFields, rfc2253 } from './distinguished-name.js';
import { base64Bytes, looksLikePem, pemBlocks } from './pem.js';
import { setMostRecent } from './recently-used.js';

const SUBJECT_ALT_NAME = '2.5.29.17';
const RFC822_NAME = 1;
const CERTIFICATE_LABELS = ['CERTIFICATE', 'X509 CERTIFICATE'];
/** RFC 7468 names CRLs `X509 CRL`; some tools (@peculiar/x509, older OpenSSL) write `CRL`. */
const CRL_LABELS = ['X509 CRL', 'CRL'];

/** Parsed certificates by their DER (base64), least recently used first: a bounded memo. */
const parsed = new Map<string, pkijs.Certificate | null>();
const PARSED_LIMIT = 256;
/** The same, by the very bytes handed out (certificatesFromText's remembered chains): no base64 key to build. */
const parsedByBytes = new WeakMap<Uint8Array, pkijs.Certificate>();

/**
 * A DER certificate parsed, or undefined when it is not one. Parsing with pkijs costs about a
 * millisecond, and a request would parse its certificates three times (extractor, credential,
 * validator) and a client sends the same one at every login: recent results are kept.
 */
export function parseCertificate(der: Uint8Array): pkijs.Certificate | undefined {
  const known = parsedByBytes.get(der);
  if (known) return known;
  const key = Buffer.from(der).toString('base64');
  const cached = parsed.get(key);
  // null is a remembered "not a certificate", not a miss.
  const certificate = cached === undefined ? parseUncached(der) : cached;
  setMostRecent(parsed, key, certificate, PARSED_LIMIT);
  return certificate ?? undefined;
}

function parseUncached(der: Uint8Array): pkijs.Certificate | null {
  try {
    const certificate = pkijs.Certificate.fromBER(der);
    rfc2253(certificate.subject);
    return certificate;
  } catch {
    return null;
  }
}

/**
 * Chains read from text, by the text as sent, least recently used first: a client sends the same PEM
 * at every login, and decoding and checking its base64 cost more than the rest of reading it. Only
 * readable chains are kept; callers get a fresh array of the same bytes, which nobody writes to.
 */
const chainsByText = new Map<string, readonly Uint8Array[]>();

/**
 * The certificates a request carries as text: PEM blocks (leaf first), or one DER certificate in
 * base64. Undefined when there is none or any of them cannot be read.
 */
export function certificatesFromText(text: string): Uint8Array[] | undefined {
  const remembered = chainsByText.get(text);
  if (remembered !== undefined) {
    setMostRecent(chainsByText, text, remembered, PARSED_LIMIT);
    return [...remembered];
  }
  const ders = text.includes('-----BEGIN') ? pemBlocks(text, CERTIFICATE_LABELS) : [base64Bytes(text)].filter((der) => der !== undefined);
  if (!ders || ders.length === 0) return undefined;
  for (const der of ders) {
    const certificate = parseCertificate(der);
    if (!certificate) return undefined;
    parsedByBytes.set(der, certificate);
  }
  setMostRecent(chainsByText, text, ders, PARSED_LIMIT);
  return [...ders];
}

/** The credential of a chain (DER, client first), or undefined when it is empty or any certificate cannot be read. */
export function x509Credential(chain: readonly Uint8Array[], source: CertificateSource): X509Credential | undefined {
  const certificates = chain.map(parseCertificate);
  const [leaf] = certificates;
  if (!leaf || certificates.some((certificate) => !certificate)) return undefined;
  const subject = rfc2253(leaf.subject);
  return { type: 'x509', id: subject, chain, source, subject };
}

/** The certificates of a trust anchor file: PEM (one or more) or one DER certificate. Throws naming the problem. */
export function trustAnchorCertificates(bytes: Uint8Array): Uint8Array[] {
  if (!looksLikePem(bytes)) {
    if (!parseCertificate(bytes)) throw new Error('is neither PEM (-----BEGIN CERTIFICATE-----) nor a DER certificate');
    return [bytes];
  }
  const ders = pemBlocks(Buffer.from(bytes).toString('utf8'), CERTIFICATE_LABELS);
  if (ders === undefined) throw new Error('holds a PEM block that is not base64');
  if (ders.length === 0) throw new Error('holds no PEM certificate (-----BEGIN CERTIFICATE-----)');
  ders.forEach((der, index) => {
    if (!parseCertificate(der)) throw new Error(`certificate ${index + 1} cannot be read`);
  });
  return ders;
}

/** The one CRL of a file, PEM (`X509 CRL` or `CRL`) or DER, parsed. Throws naming the problem. */
export function parseRevocationList(bytes: Uint8Array): pkijs.CertificateRevocationList {
  const ders = looksLikePem(bytes) ? pemBlocks(Buffer.from(bytes).toString('utf8'), CRL_LABELS) : [bytes];
  if (ders === undefined || ders.length !== 1) throw new Error('expected one CRL, PEM (-----BEGIN X509 CRL-----) or DER');
  try {
    return pkijs.CertificateRevocationList.fromBER(ders[0]!);
  } catch {
    throw new Error('the CRL cannot be read');
  }
}

/** What an operator is told of a CRL file: whose it is, and until when it is current. Throws as parseRevocationList. */
export function describeRevocationList(bytes: Uint8Array): { issuerDn: string; nextUpdate: number | undefined } {
  const crl = parseRevocationList(bytes);
  return { issuerDn: rfc2253(crl.issuer), nextUpdate: crl.nextUpdate?.value.getTime() };
}

export function certificateDetails(certificate: pkijs.Certificate): CertificateDetails {
  const subjectFields = ldapFields(certificate.subject);
  const subjectEmails = subjectFields.filter((field) => field.name === 'mail').map((field) => field.value);
  return {
    subjectDn: rfc2253(certificate.subject),
    issuerDn: rfc2253(certificate.issuer),
    serialNumber: BigInt(`0x${Buffer.from(certificate.serialNumber.valueBlock.valueHexView).toString('hex') || '0'}`).toString(10),
    subjectFields,
    emails: [...new Set([...alternativeEmails(certificate), ...subjectEmails])],
  };
}

function alternativeEmails(certificate: pkijs.Certificate): string[] {
  const extension = certificate.extensions?.find((candidate) => candidate.extnID === SUBJECT_ALT_NAME);
  if (!(extension?.parsedValue instanceof pkijs.AltName)) return [];
  return extension.parsedValue.altNames.filter((name) => name.type === RFC822_NAME && typeof name.value === 'string').map((name) => name.value as string);
}
