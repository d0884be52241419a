/** What a validated client certificate says about its holder: all a principal and its attributes come from. */
export interface CertificateDetails {
  /** Subject DN in RFC 2253 form, most specific part first: `CN=alice,O=Example,C=DE`. */
  readonly subjectDn: string;
  readonly issuerDn: string;
  /** The certificate's serial number in decimal (as Java's BigInteger.toString(), CAS's default). */
  readonly serialNumber: string;
  /** Subject attributes in DN order, named as LDAP names them (`cn`, `o`, `ou`, `mail`, ...); others are left out. */
  readonly subjectFields: readonly { readonly name: string; readonly value: string }[];
  /** rfc822Name entries of the subject alternative name, then any emailAddress of the subject. */
  readonly emails: readonly string[];
}

/**
 * Decides whether a client certificate chain proves an identity (module `x509`). The policy (trust
 * anchors, path length, key usage, subject pattern, revocation) is the implementation's
 * configuration; the time is its Clock's.
 *
 * `validate(chain)` takes DER certificates, the client's first; any others are candidates for
 * intermediate CAs and are trusted only through a path to a configured trust anchor. It resolves
 * to the client certificate's details when, at the clock's time:
 * - a path leads from the client certificate to a trust anchor, every signature on it verifies, and
 *   every certificate on it is within its validity dates;
 * - the client certificate is an end-entity certificate (not a CA, not itself a trust anchor);
 * - the path is no longer than allowed and every CA on it permits its length (pathLenConstraint);
 * - key usage and extended key usage, where present (or where required), allow client authentication;
 * - the subject DN matches the allowed pattern, when one is configured;
 * - with revocation checking on, no certificate below the anchor is listed on a CRL of its issuer,
 *   and each has a current CRL (or the policy lets a stale or missing one pass).
 * Otherwise it throws AuthenticationFailedError with one short reason that is safe to show the
 * caller (see CERTIFICATE_REASONS). Trouble that is not the certificate's fault throws anything else.
 */
export interface CertificateValidator {
  validate(chain: readonly Uint8Array[]): Promise<CertificateDetails>;
}

/**
 * The CRLs revocation is checked against (DER or PEM bytes, one entry per CRL file). `current()` may
 * re-read its files; it resolves to the same array object for as long as nothing changed, so a
 * validator can keep what it parsed from it, and what it validated against it.
 */
export interface RevocationListSource {
  current(): Promise<readonly Uint8Array[]>;
  /** How often, at most, `current()` looks at its files again (the operator's setting); a validator remembers a validation no longer. */
  readonly refreshSeconds?: number;
}
