import { createHash } from 'node:crypto';
import * as pkijs from 'pkijs';
import { AuthenticationFailedError } from '../../domain/errors.js';
import type { CertificateDetails, CertificateValidator } from './certificate-validator.js';
import type { Clock } from '../../ports/clock.js';
import { certificateDetails, parseCertificate } from './certificates.js';
import { setMostRecent } from './recently-used.js';
import { allowsClientAuthentication, isCertificateAuthority, pathLengthAllowed, type KeyUsageRules } from './client-certificate-rules.js';
import { CERTIFICATE_REASONS } from './reasons.js';
import { RevocationChecker, type RevocationPolicy } from './revocation.js';

/** pkijs's result code for a path whose certificates are not all within their validity dates. */
const OUTSIDE_VALIDITY = 8;
/** How long a validation is remembered when no CRL source says how often it looks again. */
const REMEMBERED_AT_MOST_SECONDS = 3600;
/** Chains remembered at once; the oldest goes first. */
const REMEMBERED_CHAINS = 10_000;

/** A chain that passed: its details, and what that verdict depended on. */
interface Remembered {
  readonly details: CertificateDetails;
  /** The CRLs it was checked against: other lists (a reload that found a change) end it. */
  readonly lists: readonly Uint8Array[] | undefined;
  readonly validatedAt: number;
  /** The verdict holds before this time on the clock, and from `validatedAt` on. */
  readonly until: number;
}

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
 *
 * A chain that passed is remembered by its fingerprint (SHA-256 of its certificates), as the same
 * client presents the same chain at every login and checking its signatures is most of a login's
 * cost. It counts until the earliest of: the first notAfter on its path, the time its CRLs would
 * turn stale (failing closed), and the CRL source's refresh interval (an hour without one). A CRL
 * source that hands over other lists (its files changed) ends every remembered verdict, so a
 * certificate revoked by a new CRL is refused from the first login that reads it. Refusals are
 * never remembered.
 */
export class PkijsCertificateValidator implements CertificateValidator {
  private readonly anchors: readonly pkijs.Certificate[];
  private readonly subjectPattern: RegExp | undefined;
  private readonly revocation: RevocationChecker | undefined;
  private readonly remembered = new Map<string, Remembered>();
  private readonly rememberMs: number;

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
    this.rememberMs = (policy.revocation?.lists.refreshSeconds ?? REMEMBERED_AT_MOST_SECONDS) * 1000;
  }

  async validate(chain: readonly Uint8Array[]): Promise<CertificateDetails> {
    const now = this.clock.now();
    const lists = await this.policy.revocation?.lists.current();
    const key = fingerprint(chain);
    const known = this.remembered.get(key);
    if (known !== undefined) {
      if (known.lists === lists && known.validatedAt <= now && now < known.until) return known.details;
      this.remembered.delete(key);
    }
    const { details, until } = await this.check(chain, new Date(now), lists);
    if (until > now) {
      setMostRecent(this.remembered, key, { details, lists, validatedAt: now, until: Math.min(until, now + this.rememberMs) }, REMEMBERED_CHAINS);
    }
    return details;
  }

  /** The whole validation at `now`: the details, and until when the verdict holds; throws a refusal. */
  private async check(chain: readonly Uint8Array[], now: Date, lists: readonly Uint8Array[] | undefined): Promise<{ details: CertificateDetails; until: number }> {
    const [leaf, ...candidates] = chain.map(parseCertificate);
    if (!leaf || !candidates.every((candidate) => candidate !== undefined)) throw refused('unreadable');
    // pkijs would accept a trust anchor as its own path; a CA certificate never names a client.
    if (isCertificateAuthority(leaf) || this.anchors.some((anchor) => sameCertificate(anchor, leaf))) throw refused('notEndEntity');
    const path = await this.pathToAnchor(leaf, candidates, now);
    if (!pathLengthAllowed(path, this.policy.maxPathLength)) throw refused('pathTooLong');
    const revocation = this.revocation && lists ? await this.revocation.check(path, now, lists) : { until: Number.POSITIVE_INFINITY };
    if ('problem' in revocation) throw new AuthenticationFailedError([revocation.problem]);
    if (!allowsClientAuthentication(leaf, this.policy)) throw refused('keyUsage');
    const details = certificateDetails(leaf);
    if (this.subjectPattern && !this.subjectPattern.test(details.subjectDn)) throw refused('subjectNotAllowed');
    // pkijs checked every certificate's dates at `now`: the path stays within them until the first notAfter.
    const expires = Math.min(...path.map((certificate) => certificate.notAfter.value.getTime()));
    return { details, until: Math.min(revocation.until, expires) };
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

/** SHA-256 over the chain's certificates, each preceded by its length. */
function fingerprint(chain: readonly Uint8Array[]): string {
  const digest = createHash('sha256');
  for (const der of chain) digest.update(`${der.byteLength}:`).update(der);
  return digest.digest('base64');
}

function sameCertificate(a: pkijs.Certificate, b: pkijs.Certificate): boolean {
  return Buffer.from(a.tbsView).equals(Buffer.from(b.tbsView));
}

function refused(reason: keyof typeof CERTIFICATE_REASONS): AuthenticationFailedError {
  return new AuthenticationFailedError([CERTIFICATE_REASONS[reason]]);
}
