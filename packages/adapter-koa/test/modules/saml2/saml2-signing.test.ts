import { expect } from 'chai';
import { SignedXml } from 'xml-crypto';
import { signEnveloped } from '@tessera/adapter-koa/modules/saml2';
import { samlCredential, type SamlCredential } from '@tessera/testkit/modules/saml2';

const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const assertion = (id: string) =>
  `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="2026-12-07T03:00:00Z"><saml:Issuer>https://idp.example.org/idp</saml:Issuer><saml:Subject><saml:NameID>casuser</saml:NameID></saml:Subject></saml:Assertion>`;

function verifiesWith(signed: string, certificate: string): boolean {
  const verifier = new SignedXml({ publicCert: certificate });
  verifier.loadSignature(/<ds:Signature[\s\S]*<\/ds:Signature>/.exec(signed)![0]);
  try {
    return verifier.checkSignature(signed);
  } catch {
    return false;
  }
}

// Signing keys are parsed once and kept: a rollover's keys, used in turn, must each sign with itself.
describe('saml2: enveloped signatures by the IdP keys, parsed once', function () {
  this.timeout(20_000);
  let current: SamlCredential;
  let next: SamlCredential;
  before(async () => {
    [current, next] = await Promise.all([samlCredential('CN=current'), samlCredential('CN=next')]);
  });

  it('signs with the credential given each time, keys used in turn: each signature verifies with its own certificate only, its KeyInfo naming it', () => {
    for (const [index, credential] of [current, next, current, next].entries()) {
      const signed = signEnveloped(assertion(`_a${index}`), `_a${index}`, credential, RSA_SHA256);
      const other = credential === current ? next : current;
      expect([verifiesWith(signed, credential.certificate), verifiesWith(signed, other.certificate)]).to.deep.equal([true, false]);
      const body = credential.certificate.replace(/-----[A-Z ]+-----|\s/g, '');
      expect(signed).to.include(`<ds:X509Certificate>${body}</ds:X509Certificate>`);
    }
  });
});
