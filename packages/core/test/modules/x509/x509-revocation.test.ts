import { expect } from 'chai';
import { CERTIFICATE_REASONS, PkijsCertificateValidator, type RevocationPolicy } from '@tessera/core/modules/x509';
import { ListRevocationSource } from '@tessera/testkit/modules/x509';
import { TestPki, type IssuedCertificate, type TestAuthority } from '@tessera/testkit/pki';
import { FixedClock } from '../../fakes.js';
import { failureReasons } from '../../failure-reasons.js';

const HOUR = 3_600_000;

// docs/protocol.md §7.2 revocation: fail closed on a stale or missing CRL
describe('x509: revocation from configured CRLs (docs/protocol.md §7)', () => {
  let clock: FixedClock;
  let root: TestAuthority;
  let alice: IssuedCertificate;
  let revokedBob: IssuedCertificate;
  before(async () => {
    clock = new FixedClock();
    root = await new TestPki(clock.now()).rootAuthority();
    alice = await root.issue({ subject: 'CN=alice' });
    revokedBob = await root.issue({ subject: 'CN=bob' });
  });

  const validator = (revocation: RevocationPolicy, maxPathLength = 1, anchorClock = clock) =>
    new PkijsCertificateValidator({ trustAnchors: [root.certificate.der], maxPathLength, requireKeyUsage: false, requireClientAuth: false, revocation }, anchorClock);

  it('refuses a certificate listed on its issuer’s CRL and accepts one that is not', async () => {
    const lists = new ListRevocationSource([await root.revocationList({ revoked: [revokedBob] })]);
    const checker = validator({ lists, failClosed: true });
    expect(await failureReasons(checker.validate([revokedBob.der]))).to.deep.equal([CERTIFICATE_REASONS.revoked]);
    expect((await checker.validate([alice.der])).subjectDn).to.equal('CN=alice');
  });

  it('fails closed: a CRL past its nextUpdate is stale, no CRL of the issuer is missing', async () => {
    const stale = await root.revocationList({ thisUpdate: clock.now() - 48 * HOUR, nextUpdate: clock.now() - HOUR });
    expect(await failureReasons(validator({ lists: new ListRevocationSource([stale]), failClosed: true }).validate([alice.der]))).to.deep.equal([CERTIFICATE_REASONS.crlStale]);
    expect(await failureReasons(validator({ lists: new ListRevocationSource([]), failClosed: true }).validate([alice.der]))).to.deep.equal([CERTIFICATE_REASONS.crlMissing]);
  });

  it('turns stale as the clock passes nextUpdate', async () => {
    const moving = new FixedClock(clock.now());
    const lists = new ListRevocationSource([await root.revocationList({ nextUpdate: moving.now() + HOUR })]);
    const checker = validator({ lists, failClosed: true }, 1, moving);
    await checker.validate([alice.der]);
    moving.advance(HOUR + 1000);
    expect(await failureReasons(checker.validate([alice.der]))).to.deep.equal([CERTIFICATE_REASONS.crlStale]);
  });

  it('with failClosed off, lets a stale or missing CRL pass, but never a listed certificate', async () => {
    const stale = await root.revocationList({ revoked: [revokedBob], thisUpdate: clock.now() - 48 * HOUR, nextUpdate: clock.now() - HOUR });
    expect((await validator({ lists: new ListRevocationSource([]), failClosed: false }).validate([alice.der])).subjectDn).to.equal('CN=alice');
    const open = validator({ lists: new ListRevocationSource([stale]), failClosed: false });
    expect((await open.validate([alice.der])).subjectDn).to.equal('CN=alice');
    expect(await failureReasons(open.validate([revokedBob.der]))).to.deep.equal([CERTIFICATE_REASONS.revoked]);
  });

  it('ignores a CRL that is not signed by the issuer (a forged CRL cannot vouch, nor revoke)', async () => {
    const impostor = await new TestPki(clock.now()).rootAuthority('CN=tessera test root CA,O=tessera');
    const forged = await impostor.revocationList({ revoked: [alice] });
    const checker = validator({ lists: new ListRevocationSource([forged]), failClosed: true });
    expect(await failureReasons(checker.validate([alice.der]))).to.deep.equal([CERTIFICATE_REASONS.crlMissing]);
  });

  it('checks every certificate below the anchor: a revoked intermediate, and an intermediate without its CRL', async () => {
    const intermediate = await root.intermediate('CN=Issuing CA');
    const carol = await intermediate.issue({ subject: 'CN=carol' });
    const chain = [carol.der, intermediate.certificate.der];
    const bothCurrent = new ListRevocationSource([await root.revocationList(), await intermediate.revocationList()]);
    expect((await validator({ lists: bothCurrent, failClosed: true }, 2).validate(chain)).subjectDn).to.equal('CN=carol');
    const intermediateRevoked = new ListRevocationSource([await root.revocationList({ revoked: [intermediate.certificate] }), await intermediate.revocationList()]);
    expect(await failureReasons(validator({ lists: intermediateRevoked, failClosed: true }, 2).validate(chain))).to.deep.equal([CERTIFICATE_REASONS.revoked]);
    const onlyRootList = new ListRevocationSource([await root.revocationList()]);
    expect(await failureReasons(validator({ lists: onlyRootList, failClosed: true }, 2).validate(chain))).to.deep.equal([CERTIFICATE_REASONS.crlMissing]);
  });

  it('reads replaced lists: a certificate revoked after start is refused once the source has the new CRL', async () => {
    const lists = new ListRevocationSource([await root.revocationList()]);
    const checker = validator({ lists, failClosed: true });
    await checker.validate([alice.der]);
    lists.replace([await root.revocationList({ revoked: [alice] })]);
    expect(await failureReasons(checker.validate([alice.der]))).to.deep.equal([CERTIFICATE_REASONS.revoked]);
  });

  it('does not check revocation without a revocation policy', async () => {
    const plain = new PkijsCertificateValidator({ trustAnchors: [root.certificate.der], maxPathLength: 1, requireKeyUsage: false, requireClientAuth: false }, clock);
    expect((await plain.validate([revokedBob.der])).subjectDn).to.equal('CN=bob');
  });
});
