import { expect } from 'chai';
import { AuthenticationFailedError, Authenticator, MIXED_PRINCIPALS, describeCredential, type Credential } from '@tessera/core';
import {
  CERTIFICATE_REASONS,
  PkijsCertificateValidator,
  X509CredentialHandler,
  certificatesFromText,
  describeRevocationList,
  trustAnchorCertificates,
  x509Credential,
  type PrincipalIdSource,
} from '@tessera/core/modules/x509';
import { TestPki, type IssuedCertificate, type TestAuthority } from '@tessera/testkit/pki';
import { FixedClock, RecordingEvents, TableHandler, password } from '../../fakes.js';

const SUBJECT = 'CN=Smith\\, John+OU=R\\+D,O=Example,E=john@example.org';
const ia5Hex = (text: string) => `16${text.length.toString(16).padStart(2, '0')}${Buffer.from(text).toString('hex')}`;
const SUBJECT_DN = `CN=Smith\\, John+OU=R\\+D,O=Example,1.2.840.113549.1.9.1=#${ia5Hex('john@example.org')}`;

// docs/protocol.md §2 (certificate credential) and §7 (principal from the subject DN by default)
describe('x509: the credential, its handler and principal resolution (docs/protocol.md §2, §7)', () => {
  let clock: FixedClock;
  let root: TestAuthority;
  let john: IssuedCertificate;
  let casuser: IssuedCertificate;
  before(async () => {
    clock = new FixedClock();
    root = await new TestPki(clock.now()).rootAuthority();
    john = await root.issue({ subject: SUBJECT, email: 'j.smith@example.org' });
    casuser = await root.issue({ subject: 'CN=casuser,O=Example' });
  });

  const validator = () => new PkijsCertificateValidator({ trustAnchors: [root.certificate.der], maxPathLength: 1, requireKeyUsage: false, requireClientAuth: false }, clock);
  const handler = (principalId: PrincipalIdSource = 'subjectDn') => new X509CredentialHandler('x509', validator(), principalId);
  const credential = (certificate: IssuedCertificate): Credential => x509Credential([certificate.der], 'form')!;

  describe('reading certificates', () => {
    it('describes a credential by its subject DN in RFC 2253 form: most specific first, escaped, other types as #hex', () => {
      const read = credential(john);
      expect(read).to.include({ type: 'x509', source: 'form', subject: SUBJECT_DN });
      expect(describeCredential(read)).to.deep.equal({ id: SUBJECT_DN, type: 'x509' });
    });

    it('reads PEM (several blocks, newlines flattened to spaces) and base64 DER; nothing else', () => {
      const flattened = `${john.pem}${root.certificate.pem}`.replace(/\n/g, ' ');
      expect(certificatesFromText(flattened)?.map((der) => Buffer.from(der).toString('hex'))).to.deep.equal([john.der, root.certificate.der].map((der) => Buffer.from(der).toString('hex')));
      expect(certificatesFromText(Buffer.from(john.der).toString('base64'))?.length).to.equal(1);
      for (const junk of ['', '(null)', 'not a certificate', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----', john.pem.replace('MII', 'M!I')]) {
        expect(certificatesFromText(junk), junk).to.equal(undefined);
      }
      expect(x509Credential([], 'tls')).to.equal(undefined);
      expect(x509Credential([john.der, new Uint8Array([1, 2, 3])], 'tls')).to.equal(undefined);
    });

    it('reads the same text the same way every time, each caller getting a list of its own', () => {
      const text = john.pem + root.certificate.pem;
      const first = certificatesFromText(text);
      first?.pop();
      const again = certificatesFromText(text);
      expect(again?.map((der) => Buffer.from(der).toString('hex'))).to.deep.equal([john.der, root.certificate.der].map((der) => Buffer.from(der).toString('hex')));
      expect(x509Credential(again!, 'form')?.subject).to.equal(SUBJECT_DN);
      const broken = john.pem.replace('MII', 'M!I');
      expect(certificatesFromText(broken)).to.equal(undefined);
      expect(certificatesFromText(broken)).to.equal(undefined);
    });

    it('reads trust anchor and CRL files (PEM or DER), naming what is wrong with others', async () => {
      expect(trustAnchorCertificates(Buffer.from(root.certificate.pem + john.pem))).to.have.length(2);
      expect(trustAnchorCertificates(root.certificate.der)).to.have.length(1);
      expect(() => trustAnchorCertificates(Buffer.from('hello'))).to.throw(/neither PEM .* nor a DER certificate/);
      const crl = await root.revocationList({ nextUpdate: clock.now() + 60_000 });
      expect(() => trustAnchorCertificates(Buffer.from(crl.pem))).to.throw(/holds no PEM certificate/);
      expect(describeRevocationList(Buffer.from(crl.pem))).to.deep.equal({ issuerDn: 'CN=tessera test root CA,O=tessera', nextUpdate: clock.now() + 60_000 });
      expect(describeRevocationList(Buffer.from(crl.pem.replace(/X509 CRL/g, 'CRL'))).issuerDn).to.equal('CN=tessera test root CA,O=tessera');
      expect(() => describeRevocationList(Buffer.from(john.pem))).to.throw(/expected one CRL/);
    });
  });

  describe('principal resolution', () => {
    it('subject DN by default, with the subject fields, e-mail addresses, DNs and serial as attributes', async () => {
      const principal = await handler().authenticate(credential(john));
      expect(principal.id).to.equal(SUBJECT_DN);
      expect(principal.attributes).to.deep.equal({
        cn: ['Smith, John'],
        ou: ['R+D'],
        o: ['Example'],
        mail: ['j.smith@example.org', 'john@example.org'],
        subjectDn: [SUBJECT_DN],
        issuerDn: ['CN=tessera test root CA,O=tessera'],
        certificateSerialNumber: [BigInt(`0x${john.serialNumber}`).toString(10)],
      });
    });

    it('CN, e-mail (subject alternative name first) or serial number by configuration', async () => {
      expect((await handler('cn').authenticate(credential(john))).id).to.equal('Smith, John');
      expect((await handler('email').authenticate(credential(john))).id).to.equal('j.smith@example.org');
      expect((await handler('serialNumber').authenticate(credential(john))).id).to.equal(BigInt(`0x${john.serialNumber}`).toString(10));
    });

    it('refuses a certificate that lacks what names the principal', async () => {
      const failure = await handler('email').authenticate(credential(casuser)).catch((error: unknown) => error);
      expect(failure).to.be.instanceOf(AuthenticationFailedError);
      expect((failure as AuthenticationFailedError).reasons).to.deep.equal(['Certificate names no e-mail address.']);
    });
  });

  describe('with the Authenticator: every credential must pass and name one principal', () => {
    const passwords = new TableHandler('table', { casuser: { password: 'Mellon', attributes: { memberOf: ['staff'] } } });
    const authenticator = (principalId: PrincipalIdSource, events = new RecordingEvents()) => new Authenticator([passwords, handler(principalId)], clock, events);

    it('password and certificate of the same principal (CN resolution) log in, attributes merged', async () => {
      const authentication = await authenticator('cn').authenticate([password('casuser', 'Mellon'), credential(casuser)]);
      expect(authentication.principal.id).to.equal('casuser');
      expect(authentication.principal.attributes).to.include.keys('memberOf', 'cn', 'subjectDn');
      expect(authentication.credentials).to.deep.equal([
        { id: 'casuser', type: 'usernamePassword' },
        { id: 'CN=casuser,O=Example', type: 'x509' },
      ]);
      expect(authentication.attributes['successfulAuthenticationHandlers']).to.deep.equal(['table', 'x509']);
    });

    it('a wrong password with a good certificate fails, and so does a certificate of someone else', async () => {
      const events = new RecordingEvents();
      const wrongPassword = await authenticator('cn', events).authenticate([password('casuser', 'nope'), credential(casuser)]).catch((error: unknown) => error);
      expect((wrongPassword as AuthenticationFailedError).reasons).to.deep.equal(['table refused']);
      const mixed = await authenticator('cn').authenticate([password('casuser', 'Mellon'), credential(john)]).catch((error: unknown) => error);
      expect((mixed as AuthenticationFailedError).reasons).to.deep.equal([MIXED_PRINCIPALS]);
      expect(events.ofType('authentication.failed')[0]).to.deep.include({ credentialIds: ['casuser', 'CN=casuser,O=Example'], credentialTypes: ['usernamePassword', 'x509'] });
    });

    it('a good password with an untrusted certificate fails with the certificate’s reason', async () => {
      const stranger = await new TestPki(clock.now()).selfSigned({ subject: 'CN=casuser,O=Example' });
      const failure = await authenticator('cn').authenticate([password('casuser', 'Mellon'), credential(stranger)]).catch((error: unknown) => error);
      expect((failure as AuthenticationFailedError).reasons).to.deep.equal([CERTIFICATE_REASONS.untrusted]);
    });
  });
});
