// @peculiar/x509 resolves its algorithm providers through tsyringe, which needs the Reflect metadata API.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { randomBytes, webcrypto } from 'node:crypto';

type CryptoKeyPair = webcrypto.CryptoKeyPair;
type CryptoKey = webcrypto.CryptoKey;

const KEY_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING_ALGORITHM = { name: 'ECDSA', hash: 'SHA-256' } as const;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A certificate with its key pair, in every form a test hands on: DER, PEM, and the private key as PKCS#8 PEM. */
export interface IssuedCertificate {
  readonly certificate: x509.X509Certificate;
  readonly keys: CryptoKeyPair;
  /** Hexadecimal, as `openssl x509 -serial` prints it. */
  readonly serialNumber: string;
  readonly der: Uint8Array;
  readonly pem: string;
  readonly privateKeyPem: string;
}

/** A CRL as DER and as PEM labelled `X509 CRL` (what OpenSSL and Node's `crl` option read). */
export interface RevocationList {
  readonly der: Uint8Array;
  readonly pem: string;
}

export interface CertificateOptions {
  /** An RFC 4514 DN, e.g. `CN=alice,O=Example`. */
  readonly subject: string;
  /** Default: an hour before the PKI's time. */
  readonly notBefore?: number;
  /** Default: 30 days after the PKI's time. */
  readonly notAfter?: number;
  /** An rfc822Name in the subject alternative name. */
  readonly email?: string;
  /** An iPAddress in the subject alternative name (a TLS server certificate). */
  readonly ipAddress?: string;
  /** Extended key usages (OIDs); default `[clientAuth]`, `[]` for no extension at all. */
  readonly extendedKeyUsages?: readonly string[];
  /** Key usage flags; default digitalSignature, 0 for no extension at all. */
  readonly keyUsage?: number;
}

export const KEY_USAGE = x509.KeyUsageFlags;
export const EXTENDED_KEY_USAGE = x509.ExtendedKeyUsage;

/**
 * Certificates and CRLs made at run time, relative to a given time (a FixedClock's `now()`), so no
 * fixture ever expires: a root CA, intermediates, client and server certificates, expired,
 * not-yet-valid and self-signed ones. Keys are ECDSA P-256, quick to make.
 */
export class TestPki {
  constructor(readonly now: number = Date.now()) {}

  /** A self-signed root CA. `pathLength` sets basicConstraints pathLenConstraint (none: unlimited). */
  async rootAuthority(subject = 'CN=tessera test root CA,O=tessera', options: { pathLength?: number; notAfter?: number } = {}): Promise<TestAuthority> {
    const keys = await generateKeys();
    const certificate = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: serialNumber(),
      name: distinguishedName(subject),
      keys,
      signingAlgorithm: SIGNING_ALGORITHM,
      notBefore: new Date(this.now - DAY),
      notAfter: new Date(options.notAfter ?? this.now + 365 * DAY),
      extensions: await authorityExtensions(keys.publicKey, options.pathLength),
    });
    return new TestAuthority(this, await issued(certificate, keys));
  }

  /** A self-signed end-entity certificate: no trust anchor vouches for it. */
  async selfSigned(options: CertificateOptions): Promise<IssuedCertificate> {
    const keys = await generateKeys();
    const certificate = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: serialNumber(),
      name: distinguishedName(options.subject),
      keys,
      signingAlgorithm: SIGNING_ALGORITHM,
      ...this.validity(options),
      extensions: leafExtensions(options),
    });
    return issued(certificate, keys);
  }

  validity(options: Pick<CertificateOptions, 'notBefore' | 'notAfter'>): { notBefore: Date; notAfter: Date } {
    return { notBefore: new Date(options.notBefore ?? this.now - HOUR), notAfter: new Date(options.notAfter ?? this.now + 30 * DAY) };
  }
}

/** A CA of a TestPki: issues intermediates, client (or server) certificates and CRLs. */
export class TestAuthority {
  constructor(
    private readonly pki: TestPki,
    readonly certificate: IssuedCertificate,
  ) {}

  /** An intermediate CA signed by this one. */
  async intermediate(subject: string, options: { pathLength?: number; notAfter?: number } = {}): Promise<TestAuthority> {
    const keys = await generateKeys();
    const extensions = [...(await authorityExtensions(keys.publicKey, options.pathLength)), await this.authorityKeyIdentifier()];
    const certificate = await this.sign({ subject, notAfter: options.notAfter ?? this.pki.now + 180 * DAY }, keys, extensions);
    return new TestAuthority(this.pki, await issued(certificate, keys));
  }

  /** An end-entity certificate; by default a client certificate (digitalSignature, clientAuth). */
  async issue(options: CertificateOptions): Promise<IssuedCertificate> {
    const keys = await generateKeys();
    const certificate = await this.sign(options, keys, [...leafExtensions(options), await this.authorityKeyIdentifier()]);
    return issued(certificate, keys);
  }

  /** A CRL of this CA listing `revoked`; by default issued an hour ago, next update in a day. */
  async revocationList(options: { revoked?: readonly IssuedCertificate[]; thisUpdate?: number; nextUpdate?: number } = {}): Promise<RevocationList> {
    const thisUpdate = new Date(options.thisUpdate ?? this.pki.now - HOUR);
    const crl = await x509.X509CrlGenerator.create({
      issuer: this.certificate.certificate.subjectName,
      thisUpdate,
      nextUpdate: new Date(options.nextUpdate ?? this.pki.now + DAY),
      entries: (options.revoked ?? []).map((certificate) => ({ serialNumber: certificate.serialNumber, revocationDate: thisUpdate, reason: x509.X509CrlReason.keyCompromise })),
      signingAlgorithm: SIGNING_ALGORITHM,
      signingKey: this.certificate.keys.privateKey,
      extensions: [await this.authorityKeyIdentifier()],
    });
    const der = new Uint8Array(crl.rawData);
    return { der, pem: pem('X509 CRL', der) };
  }

  private async sign(options: CertificateOptions, keys: CryptoKeyPair, extensions: x509.Extension[]): Promise<x509.X509Certificate> {
    return x509.X509CertificateGenerator.create({
      serialNumber: serialNumber(),
      subject: distinguishedName(options.subject),
      issuer: this.certificate.certificate.subjectName,
      publicKey: keys.publicKey,
      signingKey: this.certificate.keys.privateKey,
      signingAlgorithm: SIGNING_ALGORITHM,
      ...this.pki.validity(options),
      extensions,
    });
  }

  private authorityKeyIdentifier(): Promise<x509.AuthorityKeyIdentifierExtension> {
    return x509.AuthorityKeyIdentifierExtension.create(this.certificate.keys.publicKey);
  }
}

async function authorityExtensions(publicKey: CryptoKey, pathLength: number | undefined): Promise<x509.Extension[]> {
  return [
    new x509.BasicConstraintsExtension(true, pathLength, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true),
    await x509.SubjectKeyIdentifierExtension.create(publicKey),
  ];
}

function leafExtensions(options: CertificateOptions): x509.Extension[] {
  const extensions: x509.Extension[] = [new x509.BasicConstraintsExtension(false, undefined, true)];
  const keyUsage = options.keyUsage ?? x509.KeyUsageFlags.digitalSignature;
  if (keyUsage !== 0) extensions.push(new x509.KeyUsagesExtension(keyUsage, true));
  const usages = options.extendedKeyUsages ?? [x509.ExtendedKeyUsage.clientAuth];
  if (usages.length > 0) extensions.push(new x509.ExtendedKeyUsageExtension([...usages]));
  const names: x509.JsonGeneralNames = [];
  if (options.email !== undefined) names.push({ type: 'email', value: options.email });
  if (options.ipAddress !== undefined) names.push({ type: 'ip', value: options.ipAddress });
  if (names.length > 0) extensions.push(new x509.SubjectAlternativeNameExtension(names));
  return extensions;
}

/**
 * An RFC 4514 string names its most specific RDN first, the DER sequence last: `CN=alice,O=Example`
 * is encoded O first, as CAs do. @peculiar/x509 would encode the string's order as it stands.
 */
function distinguishedName(subject: string): x509.JsonName {
  return new x509.Name(subject).toJSON().reverse();
}

function generateKeys(): Promise<CryptoKeyPair> {
  return webcrypto.subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify']);
}

async function issued(certificate: x509.X509Certificate, keys: CryptoKeyPair): Promise<IssuedCertificate> {
  const der = new Uint8Array(certificate.rawData);
  const pkcs8 = new Uint8Array(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  return { certificate, keys, serialNumber: certificate.serialNumber, der, pem: pem('CERTIFICATE', der), privateKeyPem: pem('PRIVATE KEY', pkcs8) };
}

/** A positive serial number of 16 random bytes (RFC 5280: at most 20 octets, positive). */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x10;
  return bytes.toString('hex');
}

function pem(label: string, der: Uint8Array): string {
  const lines = Buffer.from(der).toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}
