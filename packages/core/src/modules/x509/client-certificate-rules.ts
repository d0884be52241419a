import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

const BASIC_CONSTRAINTS = '2.5.29.19';
const KEY_USAGE = '2.5.29.15';
const EXTENDED_KEY_USAGE = '2.5.29.37';
const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const ANY_EXTENDED_KEY_USAGE = '2.5.29.37.0';
/** keyUsage bits (RFC 5280 §4.2.1.3), bit 0 being the most significant bit of the first byte. */
const DIGITAL_SIGNATURE = 0x80;
const CRL_SIGN = 0x02;

export interface KeyUsageRules {
  /** The keyUsage extension must be there (with digitalSignature). */
  readonly requireKeyUsage: boolean;
  /** The extendedKeyUsage extension must be there (with clientAuth). */
  readonly requireClientAuth: boolean;
}

function extension(certificate: pkijs.Certificate, id: string): pkijs.Extension | undefined {
  return certificate.extensions?.find((candidate) => candidate.extnID === id);
}

function basicConstraints(certificate: pkijs.Certificate): pkijs.BasicConstraints | undefined {
  const parsed = extension(certificate, BASIC_CONSTRAINTS)?.parsedValue as unknown;
  return parsed instanceof pkijs.BasicConstraints ? parsed : undefined;
}

/** basicConstraints cA: a CA certificate, which never identifies a client. */
export function isCertificateAuthority(certificate: pkijs.Certificate): boolean {
  return basicConstraints(certificate)?.cA === true;
}

/**
 * Whether `path` (client first, trust anchor last) is within `maxLength` certificates below the
 * anchor, and within every pathLenConstraint on it (RFC 5280 §4.2.1.9: the most CA certificates
 * that may follow that CA below it). pkijs's chain engine checks neither.
 */
export function pathLengthAllowed(path: readonly pkijs.Certificate[], maxLength: number): boolean {
  if (path.length - 1 > maxLength) return false;
  return path.every((certificate, index) => {
    const limit = basicConstraints(certificate)?.pathLenConstraint;
    // CAs between this one and the client: the certificates at indexes 1 .. index-1.
    return index < 2 || typeof limit !== 'number' || index - 1 <= limit;
  });
}

/**
 * Key usage and extended key usage allow TLS client authentication: where an extension is there it
 * is honoured (RFC 5280: digitalSignature; clientAuth or anyExtendedKeyUsage), and the rules can
 * demand that it is there.
 */
export function allowsClientAuthentication(certificate: pkijs.Certificate, rules: KeyUsageRules): boolean {
  const keyUsage = extension(certificate, KEY_USAGE)?.parsedValue as unknown;
  if (keyUsage === undefined ? rules.requireKeyUsage : !hasKeyUsage(keyUsage, DIGITAL_SIGNATURE)) return false;
  const extended = extension(certificate, EXTENDED_KEY_USAGE)?.parsedValue as unknown;
  if (extended === undefined) return !rules.requireClientAuth;
  return extended instanceof pkijs.ExtKeyUsage && extended.keyPurposes.some((purpose) => purpose === CLIENT_AUTH || purpose === ANY_EXTENDED_KEY_USAGE);
}

/** A CRL's issuer: without a keyUsage extension any CA may sign CRLs; with one, it needs cRLSign. */
export function mayIssueRevocationLists(certificate: pkijs.Certificate): boolean {
  const keyUsage = extension(certificate, KEY_USAGE)?.parsedValue as unknown;
  return keyUsage === undefined || hasKeyUsage(keyUsage, CRL_SIGN);
}

function hasKeyUsage(keyUsage: unknown, bit: number): boolean {
  if (!(keyUsage instanceof asn1js.BitString)) return false;
  const [first = 0] = keyUsage.valueBlock.valueHexView;
  return (first & bit) !== 0;
}
