import { expect } from 'chai';
import { CERTIFICATE_REASONS, PkijsCertificateValidator, type CertificatePolicy } from '@tessera/core/modules/x509';
import { EXTENDED_KEY_USAGE, KEY_USAGE, TestAuthority, TestPki, type IssuedCertificate } from '@tessera/testkit/pki';
import { FixedClock } from '../../fakes.js';
import { failureReasons } from '../../failure-reasons.js';

const DAY = 86_400_000;

interface Pki {
  readonly clock: FixedClock;
  readonly pki: TestPki;
  readonly root: TestAuthority;
  readonly alice: IssuedCertificate;
}

async function aPki(): Promise<Pki> {
  const clock = new FixedClock();
  const pki = new TestPki(clock.now());
  const root = await pki.rootAuthority();
  const alice = await root.issue({ subject: 'CN=alice,OU=People,O=Example,C=DE', email: 'alice@example.org' });
  return { clock, pki, root, alice };
}

function validator({ clock, root }: Pki, policy: Partial<CertificatePolicy> = {}): PkijsCertificateValidator {
  return new PkijsCertificateValidator({ trustAnchors: [root.certificate.der], maxPathLength: 1, requireKeyUsage: false, requireClientAuth: false, ...policy }, clock);
}

const chainOf = (...certificates: IssuedCertificate[]) => certificates.map((certificate) => certificate.der);

// docs/protocol.md §7.2: the chain to a trust anchor is enforced
describe('x509: certificate validation with pkijs (docs/protocol.md §7)', () => {
  let ctx: Pki;
  before(async () => {
    ctx = await aPki();
  });

  it("accepts a client certificate issued by a trust anchor, describing its subject in RFC 2253 form", async () => {
    const details = await validator(ctx).validate(chainOf(ctx.alice));
    expect(details.subjectDn).to.equal('CN=alice,OU=People,O=Example,C=DE');
    expect(details.issuerDn).to.equal('CN=tessera test root CA,O=tessera');
    expect(details.serialNumber).to.equal(BigInt(`0x${ctx.alice.serialNumber}`).toString(10));
    expect(details.emails).to.deep.equal(['alice@example.org']);
    expect(details.subjectFields).to.deep.equal([
      { name: 'cn', value: 'alice' },
      { name: 'ou', value: 'People' },
      { name: 'o', value: 'Example' },
      { name: 'c', value: 'DE' },
    ]);
  });

  it('refuses a certificate no trust anchor issued: a self-signed one, and one of another CA', async () => {
    const selfSigned = await ctx.pki.selfSigned({ subject: 'CN=mallory' });
    expect(await failureReasons(validator(ctx).validate(chainOf(selfSigned)))).to.deep.equal([CERTIFICATE_REASONS.untrusted]);
    const otherRoot = await ctx.pki.rootAuthority('CN=other CA');
    const stranger = await otherRoot.issue({ subject: 'CN=stranger' });
    expect(await failureReasons(validator(ctx).validate(chainOf(stranger, otherRoot.certificate)))).to.deep.equal([CERTIFICATE_REASONS.untrusted]);
  });

  it("refuses a certificate signed by a different key under the trust anchor's name (a forged issuer)", async () => {
    const impostor = await ctx.pki.rootAuthority('CN=tessera test root CA,O=tessera');
    const forged = await impostor.issue({ subject: 'CN=alice,OU=People,O=Example,C=DE' });
    expect(await failureReasons(validator(ctx).validate(chainOf(forged)))).to.deep.equal([CERTIFICATE_REASONS.untrusted]);
  });

  it("refuses a client's certificate used as a CA to issue another (a non-CA issuer)", async () => {
    // Signed with alice's own key: the signature verifies, but alice is no CA (basicConstraints cA false).
    const fake = await new TestAuthority(ctx.pki, ctx.alice).issue({ subject: 'CN=admin' });
    expect(await failureReasons(validator(ctx).validate(chainOf(fake, ctx.alice)))).to.deep.equal([CERTIFICATE_REASONS.untrusted]);
  });

  it('refuses a CA certificate, the trust anchor itself included, as a client certificate', async () => {
    expect(await failureReasons(validator(ctx).validate(chainOf(ctx.root.certificate)))).to.deep.equal([CERTIFICATE_REASONS.notEndEntity]);
    const intermediate = await ctx.root.intermediate('CN=Issuing CA');
    expect(await failureReasons(validator(ctx, { maxPathLength: 2 }).validate(chainOf(intermediate.certificate)))).to.deep.equal([CERTIFICATE_REASONS.notEndEntity]);
  });

  it('refuses bytes that are not a certificate, and an empty chain', async () => {
    expect(await failureReasons(validator(ctx).validate([new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x01])]))).to.deep.equal([CERTIFICATE_REASONS.unreadable]);
    expect(await failureReasons(validator(ctx).validate([]))).to.deep.equal([CERTIFICATE_REASONS.unreadable]);
  });

  describe('validity dates at the clock’s time', () => {
    it('refuses an expired certificate and a not-yet-valid one, naming which', async () => {
      const expired = await ctx.root.issue({ subject: 'CN=old', notBefore: ctx.clock.now() - 30 * DAY, notAfter: ctx.clock.now() - DAY });
      expect(await failureReasons(validator(ctx).validate(chainOf(expired)))).to.deep.equal([CERTIFICATE_REASONS.expired]);
      const early = await ctx.root.issue({ subject: 'CN=early', notBefore: ctx.clock.now() + DAY });
      expect(await failureReasons(validator(ctx).validate(chainOf(early)))).to.deep.equal([CERTIFICATE_REASONS.notYetValid]);
    });

    it('follows the clock: valid until notAfter, refused after it', async () => {
      const clock = new FixedClock(ctx.clock.now());
      const certificate = await ctx.root.issue({ subject: 'CN=short', notAfter: clock.now() + 60_000 });
      const checker = validator({ ...ctx, clock });
      await checker.validate(chainOf(certificate));
      clock.advance(61_000);
      expect(await failureReasons(checker.validate(chainOf(certificate)))).to.deep.equal([CERTIFICATE_REASONS.expired]);
    });

    it('refuses a valid client certificate when an issuing CA is out of its dates', async () => {
      const lapsed = await ctx.root.intermediate('CN=Lapsed CA', { notAfter: ctx.clock.now() - DAY });
      const client = await lapsed.issue({ subject: 'CN=bob', notBefore: ctx.clock.now() - 2 * DAY });
      expect(await failureReasons(validator(ctx, { maxPathLength: 2 }).validate(chainOf(client, lapsed.certificate)))).to.deep.equal([CERTIFICATE_REASONS.issuerDates]);
    });
  });

  describe('path length (default 1: issued by a trust anchor itself)', () => {
    let intermediate: TestAuthority;
    let bob: IssuedCertificate;
    before(async () => {
      intermediate = await ctx.root.intermediate('CN=Issuing CA,O=tessera');
      bob = await intermediate.issue({ subject: 'CN=bob' });
    });

    it('refuses CA → intermediate → client with the default maximum of 1', async () => {
      expect(await failureReasons(validator(ctx).validate(chainOf(bob, intermediate.certificate)))).to.deep.equal([CERTIFICATE_REASONS.pathTooLong]);
    });

    it('accepts it with maxPathLength 2, the intermediate sent along with the client certificate', async () => {
      expect((await validator(ctx, { maxPathLength: 2 }).validate(chainOf(bob, intermediate.certificate))).subjectDn).to.equal('CN=bob');
    });

    it('needs the intermediate: without it there is no path', async () => {
      expect(await failureReasons(validator(ctx, { maxPathLength: 2 }).validate(chainOf(bob)))).to.deep.equal([CERTIFICATE_REASONS.untrusted]);
    });

    it('accepts the intermediate as a trust anchor of its own, at length 1', async () => {
      expect((await validator(ctx, { trustAnchors: [intermediate.certificate.der] }).validate(chainOf(bob))).subjectDn).to.equal('CN=bob');
    });

    it("honours a CA's pathLenConstraint even when maxPathLength would allow more", async () => {
      const strictRoot = await ctx.pki.rootAuthority('CN=strict root', { pathLength: 0 });
      const below = await strictRoot.intermediate('CN=below strict root');
      const client = await below.issue({ subject: 'CN=carol' });
      const strict = validator(ctx, { trustAnchors: [strictRoot.certificate.der], maxPathLength: 5 });
      expect(await failureReasons(strict.validate(chainOf(client, below.certificate)))).to.deep.equal([CERTIFICATE_REASONS.pathTooLong]);
      expect((await strict.validate(chainOf(await strictRoot.issue({ subject: 'CN=dave' })))).subjectDn).to.equal('CN=dave');
    });
  });

  describe('key usage and extended key usage', () => {
    it('honours them where present: a server-only certificate or one without digitalSignature is refused', async () => {
      const serverOnly = await ctx.root.issue({ subject: 'CN=server', extendedKeyUsages: [EXTENDED_KEY_USAGE.serverAuth] });
      expect(await failureReasons(validator(ctx).validate(chainOf(serverOnly)))).to.deep.equal([CERTIFICATE_REASONS.keyUsage]);
      const encipherOnly = await ctx.root.issue({ subject: 'CN=encipher', keyUsage: KEY_USAGE.keyEncipherment });
      expect(await failureReasons(validator(ctx).validate(chainOf(encipherOnly)))).to.deep.equal([CERTIFICATE_REASONS.keyUsage]);
    });

    it('accepts a certificate without the extensions unless they are required', async () => {
      const bare = await ctx.root.issue({ subject: 'CN=bare', extendedKeyUsages: [], keyUsage: 0 });
      expect((await validator(ctx).validate(chainOf(bare))).subjectDn).to.equal('CN=bare');
      expect(await failureReasons(validator(ctx, { requireClientAuth: true }).validate(chainOf(bare)))).to.deep.equal([CERTIFICATE_REASONS.keyUsage]);
      expect(await failureReasons(validator(ctx, { requireKeyUsage: true }).validate(chainOf(bare)))).to.deep.equal([CERTIFICATE_REASONS.keyUsage]);
      expect((await validator(ctx, { requireClientAuth: true, requireKeyUsage: true }).validate(chainOf(ctx.alice))).subjectDn).to.equal('CN=alice,OU=People,O=Example,C=DE');
    });
  });

  describe('subject DN pattern', () => {
    it('needs the whole RFC 2253 DN to match, case-insensitively', async () => {
      expect((await validator(ctx, { subjectPattern: 'cn=[^,]+,ou=people,o=example,c=de' }).validate(chainOf(ctx.alice))).subjectDn).to.match(/^CN=alice/);
      expect(await failureReasons(validator(ctx, { subjectPattern: 'CN=[^,]+,OU=Staff,.*' }).validate(chainOf(ctx.alice)))).to.deep.equal([CERTIFICATE_REASONS.subjectNotAllowed]);
      // A partial match is not enough.
      expect(await failureReasons(validator(ctx, { subjectPattern: 'CN=alice' }).validate(chainOf(ctx.alice)))).to.deep.equal([CERTIFICATE_REASONS.subjectNotAllowed]);
    });
  });
});
