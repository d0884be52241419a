import { expect } from 'chai';
import * as pkijs from 'pkijs';
import { CERTIFICATE_REASONS, PkijsCertificateValidator, type RevocationListSource, type RevocationPolicy } from '@tessera/core/modules/x509';
import { ListRevocationSource } from '@tessera/testkit/modules/x509';
import { TestPki, type IssuedCertificate, type TestAuthority } from '@tessera/testkit/pki';
import { FixedClock } from '../../fakes.js';
import { failureReasons } from '../../failure-reasons.js';

const HOUR = 3_600_000;

/** How many times pkijs's chain engine ran (the signature checks a remembered chain is spared). */
function countingChainChecks(): { count: () => number; restore: () => void } {
  const prototype = pkijs.CertificateChainValidationEngine.prototype;
  const verify = Object.getOwnPropertyDescriptor(prototype, 'verify')!.value as (this: pkijs.CertificateChainValidationEngine, ...args: unknown[]) => Promise<pkijs.CertificateChainValidationEngineVerifyResult>;
  let calls = 0;
  prototype.verify = function (this: pkijs.CertificateChainValidationEngine, ...args: unknown[]) {
    calls += 1;
    return verify.apply(this, args);
  };
  return { count: () => calls, restore: () => void (prototype.verify = verify) };
}

/** A CRL source that says how often it looks again, like the CRL files. */
function refreshing(lists: ListRevocationSource, refreshSeconds: number): RevocationListSource {
  return { current: () => lists.current(), refreshSeconds };
}

// A client presents the same chain at every login: its signatures are checked once, for as long as nothing can change the verdict.
// (New CRLs forgetting every chain: x509-revocation.test.ts, 'reads replaced lists'.)
describe('x509: a validated chain is remembered by its fingerprint', () => {
  let clock: FixedClock;
  let root: TestAuthority;
  let alice: IssuedCertificate;
  let bob: IssuedCertificate;
  let checks: ReturnType<typeof countingChainChecks>;
  before(async () => {
    clock = new FixedClock();
    root = await new TestPki(clock.now()).rootAuthority();
    alice = await root.issue({ subject: 'CN=alice' });
    bob = await root.issue({ subject: 'CN=bob' });
  });
  beforeEach(() => {
    checks = countingChainChecks();
  });
  afterEach(() => checks.restore());

  const validator = (revocation?: RevocationPolicy, at = clock) =>
    new PkijsCertificateValidator({ trustAnchors: [root.certificate.der], maxPathLength: 1, requireKeyUsage: false, requireClientAuth: false, ...(revocation && { revocation }) }, at);

  it('checks a chain once and answers the same details after; another chain is checked on its own', async () => {
    const checker = validator({ lists: new ListRevocationSource([await root.revocationList()]), failClosed: true });
    const first = await checker.validate([alice.der]);
    expect(await checker.validate([alice.der])).to.deep.equal(first);
    expect(checks.count()).to.equal(1);
    expect((await checker.validate([bob.der])).subjectDn).to.equal('CN=bob');
    expect(checks.count()).to.equal(2);
  });

  it('never remembers a refusal', async () => {
    const revoked = validator({ lists: new ListRevocationSource([await root.revocationList({ revoked: [bob] })]), failClosed: true });
    for (let attempt = 0; attempt < 2; attempt += 1) expect(await failureReasons(revoked.validate([bob.der]))).to.deep.equal([CERTIFICATE_REASONS.revoked]);
    expect(checks.count()).to.equal(2);
  });

  it("is remembered no longer than the CRL source's refresh interval, nor past the time its CRLs turn stale", async () => {
    const moving = new FixedClock(clock.now());
    const lists = new ListRevocationSource([await root.revocationList({ nextUpdate: moving.now() + HOUR })]);
    const checker = validator({ lists: refreshing(lists, 600), failClosed: true }, moving);
    await checker.validate([alice.der]);
    moving.advanceSeconds(599);
    await checker.validate([alice.der]);
    expect(checks.count()).to.equal(1);
    moving.advanceSeconds(1);
    await checker.validate([alice.der]);
    expect(checks.count()).to.equal(2);
    moving.advance(HOUR - 600_000);
    expect(await failureReasons(checker.validate([alice.der]))).to.deep.equal([CERTIFICATE_REASONS.crlStale]);
  });

  it('without revocation, for an hour at most and never past a notAfter on the path; never for a clock set back', async () => {
    const moving = new FixedClock(clock.now());
    const checker = validator(undefined, moving);
    await checker.validate([alice.der]);
    moving.advance(HOUR - 1000);
    await checker.validate([alice.der]);
    expect(checks.count()).to.equal(1);
    moving.advance(1000);
    await checker.validate([alice.der]);
    expect(checks.count()).to.equal(2);

    const shortLived = await root.issue({ subject: 'CN=carol', notAfter: moving.now() + HOUR / 2 });
    await checker.validate([shortLived.der]);
    moving.advance(HOUR / 2 + 1000);
    expect(await failureReasons(checker.validate([shortLived.der]))).to.deep.equal([CERTIFICATE_REASONS.expired]);

    const notYet = await root.issue({ subject: 'CN=dave', notBefore: moving.now() - 1000 });
    await checker.validate([notYet.der]);
    moving.advance(-2000);
    expect(await failureReasons(checker.validate([notYet.der]))).to.deep.equal([CERTIFICATE_REASONS.notYetValid]);
  });
});
