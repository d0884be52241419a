import type * as pkijs from 'pkijs';
import type { RevocationListSource } from './certificate-validator.js';
import { parseRevocationList } from './certificates.js';
import { mayIssueRevocationLists } from './client-certificate-rules.js';
import { CERTIFICATE_REASONS } from './reasons.js';

export interface RevocationPolicy {
  readonly lists: RevocationListSource;
  /** Refuse a certificate whose issuer has no current CRL (none, or all past nextUpdate); false lets it pass. */
  readonly failClosed: boolean;
}

/**
 * Revocation from configured CRLs, for every certificate on a path below its trust anchor: a CRL
 * counts for a certificate when its issuer name matches, its signature verifies with the issuer's
 * key, and that issuer may sign CRLs. Done here rather than in pkijs's chain engine, which cannot
 * tell a stale CRL from a missing one and, when told to let those pass, still refuses some.
 */
export class RevocationChecker {
  private parsed: { readonly from: readonly Uint8Array[]; readonly lists: readonly pkijs.CertificateRevocationList[] } | undefined;
  /** Per CRL, per issuer key: whether the CRL's signature verified (a signature check per request is waste). */
  private readonly signatures = new WeakMap<pkijs.CertificateRevocationList, Map<string, boolean>>();

  constructor(private readonly policy: RevocationPolicy) {}

  /**
   * The reason to refuse `path` (client first, trust anchor last) at `now` against `current`, or,
   * when there is none, until when that answer holds on the clock: failing closed, until the first
   * certificate's CRLs are all stale; otherwise Infinity.
   */
  async check(path: readonly pkijs.Certificate[], now: Date, current: readonly Uint8Array[]): Promise<{ readonly problem: string } | { readonly until: number }> {
    const lists = this.parsedLists(current);
    let until = Number.POSITIVE_INFINITY;
    for (let index = 0; index < path.length - 1; index += 1) {
      const certificate = path[index]!;
      const issued = await this.listsOf(lists, certificate, path[index + 1]!);
      // A listed certificate stays revoked, whether or not the CRL saying so is still current.
      if (issued.some((crl) => crl.isCertificateRevoked(certificate))) return { problem: CERTIFICATE_REASONS.revoked };
      if (!this.policy.failClosed) continue;
      if (issued.length === 0) return { problem: CERTIFICATE_REASONS.crlMissing };
      // Current until the last of its issuer's CRLs turns stale.
      const current = Math.max(...issued.map((crl) => crl.nextUpdate?.value.getTime() ?? Number.POSITIVE_INFINITY));
      if (current <= now.getTime()) return { problem: CERTIFICATE_REASONS.crlStale };
      until = Math.min(until, current);
    }
    return { until };
  }

  private parsedLists(current: readonly Uint8Array[]): readonly pkijs.CertificateRevocationList[] {
    if (this.parsed?.from !== current) {
      // A list that cannot be read vouches for nothing: its certificates then have no CRL.
      this.parsed = { from: current, lists: current.flatMap((bytes) => readable(bytes)) };
    }
    return this.parsed.lists;
  }

  private async listsOf(lists: readonly pkijs.CertificateRevocationList[], certificate: pkijs.Certificate, issuer: pkijs.Certificate): Promise<pkijs.CertificateRevocationList[]> {
    if (!mayIssueRevocationLists(issuer)) return [];
    const named = lists.filter((crl) => crl.issuer.isEqual(certificate.issuer));
    const verified = await Promise.all(named.map((crl) => this.signedBy(crl, issuer)));
    return named.filter((_crl, index) => verified[index]);
  }

  private async signedBy(crl: pkijs.CertificateRevocationList, issuer: pkijs.Certificate): Promise<boolean> {
    const key = Buffer.from(issuer.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView).toString('hex');
    let known = this.signatures.get(crl);
    if (!known) this.signatures.set(crl, (known = new Map<string, boolean>()));
    let verified = known.get(key);
    if (verified === undefined) {
      verified = await crl.verify({ issuerCertificate: issuer }).catch(() => false);
      known.set(key, verified);
    }
    return verified;
  }
}

function readable(bytes: Uint8Array): pkijs.CertificateRevocationList[] {
  try {
    return [parseRevocationList(bytes)];
  } catch {
    return [];
  }
}
