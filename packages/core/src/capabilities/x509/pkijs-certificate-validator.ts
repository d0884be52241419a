import * as pkijs from 'pkijs';
import { AuthenticationFailedError } from '../../domain/errors.js';
import type { CertificateDetails, CertificateValidator } from '../../ports/certificate-validator.js';
import type { Clock } from '../../ports/clock.js';
import { certificateDetails, parseCertificate } from './certificates.js';
import { allowsClientAuthentication, isCertificateAuthority, pathLengthAllowed, type KeyUsageRules } from './client-certificate-rules.js';
import { CERTIFICATE_REASONS } from './reasons.js';
import { RevocationChecker, type RevocationPolicy } from './revocation.js';

/** pkijs's result code for a path whose certificates are not all within their validity dates. */
const OUTSIDE_VALIDITY = 8;

export interface CertificatePolicy extends KeyUsageRules {
  /** DER certificates a path must end in. */
  readonly trustAnchors: readonly Uint8Array[];
  /** Most certificates below a trust anchor, the client's included: 1 = issued by a trust anchor itself. */
  readonly maxPathLength: number;
  /** A regular expression the whole RFC 2253 subject DN must match, case-insensitively. */
  readonly subjectPattern?: string;
  /** Revocation from CRLs; without it, revocation is not checked. */
  readonly revocation?: RevocationPolicy;
}

/**
 * The CertificateValidator on pkijs: its chain engine builds the path to a trust anchor and checks
 * signatures and validity dates at the clock's time (RFC 5280 path validation, which Apereo CAS
 * leaves to the servlet container); the rules pkijs does not check follow it here.
 */
export class PkijsCertificateValidator implements CertificateValidator {
  private readonly anchors: readonly pkijs.Certificate[];
  private readonly subjectPattern: RegExp | undefined;
  private readonly revocation: RevocationChecker | undefined;

  constructor(
    private readonly policy: CertificatePolicy,
    private readonly clock: Clock,
  ) {
    this.anchors = policy.trustAnchors.map((der, index) => {
      const anchor = parseCertificate(der);
      if (!anchor) throw new Error(`trust anchor ${index + 1} is not a certificate`);
      return anchor;
    });
    this.subjectPattern = policy.subjectPattern === undefined ? undefined : new RegExp(`^(?:${policy.subjectPattern})$`, 'i');
    this.revocation = policy.revocation && new RevocationChecker(policy.revocation);
  }

  async validate(chain: readonly Uint8Array[]): Promise<CertificateDetails> {
    const [leaf, ...candidates] = chain.map(parseCertificate);
    if (!leaf || !candidates.every((candidate) => candidate !== undefined)) throw refused('unreadable');
    // pkijs would accept a trust anchor as its own path; a CA certificate never names a client.
    if (isCertificateAuthority(leaf) || this.anchors.some((anchor) => sameCertificate(anchor, leaf))) throw refused('notEndEntity');
    const now = new Date(this.clock.now());
    const path = await this.pathToAnchor(leaf, candidates, now);
    if (!pathLengthAllowed(path, this.policy.maxPathLength)) throw refused('pathTooLong');
    const revocationProblem = await this.revocation?.problem(path, now);
    if (revocationProblem !== undefined) throw new AuthenticationFailedError([revocationProblem]);
    if (!allowsClientAuthentication(leaf, this.policy)) throw refused('keyUsage');
    const details = certificateDetails(leaf);
    if (this.subjectPattern && !this.subjectPattern.test(details.subjectDn)) throw refused('subjectNotAllowed');
    return details;
  }

  /** The validated path, client first and trust anchor last. */
  private async pathToAnchor(leaf: pkijs.Certificate, candidates: readonly pkijs.Certificate[], now: Date): Promise<pkijs.Certificate[]> {
    // pkijs takes the last of `certs` as the end entity.
    const engine = new pkijs.CertificateChainValidationEngine({ trustedCerts: [...this.anchors], certs: [...candidates, leaf], checkDate: now });
    const result = await engine.verify();
    const path = result.certificatePath;
    if (result.result && path?.[0] && sameCertificate(path[0], leaf)) return path;
    if (result.resultCode === OUTSIDE_VALIDITY) {
      if (leaf.notAfter.value.getTime() < now.getTime()) throw refused('expired');
      if (leaf.notBefore.value.getTime() > now.getTime()) throw refused('notYetValid');
      throw refused('issuerDates');
    }
    throw refused('untrusted');
  }
}

function sameCertificate(a: pkijs.Certificate, b: pkijs.Certificate): boolean {
  return Buffer.from(a.tbsView).equals(Buffer.from(b.tbsView));
}

function refused(reason: keyof typeof CERTIFICATE_REASONS): AuthenticationFailedError {
  return new AuthenticationFailedError([CERTIFICATE_REASONS[reason]]);
}
