import { CERTIFICATE_REASONS, PkijsCertificateValidator, X509CredentialHandler, type PrincipalIdSource } from '@tessera/core/modules/x509';
import { expect } from 'chai';
import { FixedClock } from '@tessera/testkit';
import { TestPki, type IssuedCertificate, type TestAuthority } from '@tessera/testkit/pki';
import { trustedPeers, type CredentialExtractor } from '../../../src/index.js';
import { usernamePasswordExtractor } from '../../../src/index.js';
import { formCertificateExtractor, headerCertificateExtractor, tlsCertificateExtractor } from '../../../src/modules/x509/index.js';
import { FakePasswordHandler, RecordingEvents } from '../../fakes.js';
import { APP, testServer } from '../../harness.js';

const LOCAL_PEERS = ['127.0.0.1', '::1'];
const ELSEWHERE = ['10.0.0.0/8'];

interface X509Setup {
  readonly trusted?: readonly string[];
  readonly principalId?: PrincipalIdSource;
  readonly sources?: readonly ('form' | 'header' | 'tls')[];
  readonly headerName?: string;
}

/** The x509 module's parts on a test server: its extractors, a pkijs validator trusting `root`, and casuser/Mellon. */
function x509Server(root: TestAuthority, setup: X509Setup = {}) {
  const events = new RecordingEvents();
  const options = { trustedPeer: trustedPeers(setup.trusted ?? LOCAL_PEERS), events };
  const byName: Record<'form' | 'header' | 'tls', CredentialExtractor> = {
    form: formCertificateExtractor(options),
    header: headerCertificateExtractor(setup.headerName ?? 'ssl_client_cert', options),
    tls: tlsCertificateExtractor(events),
  };
  const clock = { now: () => server.clock.now() };
  const validator = new PkijsCertificateValidator({ trustAnchors: [root.certificate.der], maxPathLength: 1, requireKeyUsage: false, requireClientAuth: false }, clock);
  const server = testServer({
    handlers: [new FakePasswordHandler({ casuser: { password: 'Mellon', attributes: { memberOf: ['staff'] } } }), new X509CredentialHandler('x509', validator, setup.principalId ?? 'subjectDn')],
    extractors: [usernamePasswordExtractor, ...(setup.sources ?? ['form', 'header', 'tls']).map((source) => byName[source])],
  });
  const login = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    server.http.post('/cas/v1/tickets').set('Accept', 'text/plain').set(headers).type('form').send(fields);
  const authenticate = (fields: Record<string, string>, headers: Record<string, string> = {}) => server.http.post('/cas/v1/users').set(headers).type('form').send(fields);
  return { ...server, events, login, authenticate };
}

// docs/protocol.md §2 (certificate credential) and §7.1: form and header certificates count only from a trusted proxy
describe('docs/protocol.md §2 x509 module: certificate extractors', () => {
  let root: TestAuthority;
  let alice: IssuedCertificate;
  before(async () => {
    const pki = new TestPki(new FixedClock().now());
    root = await pki.rootAuthority();
    alice = await root.issue({ subject: 'CN=alice,O=Example', email: 'alice@example.org' });
  });

  describe('form parameter cert', () => {
    it('PEM from a trusted proxy logs in as the subject DN, with the certificate’s attributes', async () => {
      const server = x509Server(root);
      expect((await server.login({ cert: alice.pem })).status).to.equal(201);
      const response = await server.authenticate({ cert: alice.pem });
      expect(response.status, response.text).to.equal(200);
      const { principal, credentials } = (response.body as { authentication: { principal: { id: string; attributes: Record<string, string[]> }; credentials: unknown } }).authentication;
      expect(principal.id).to.equal('CN=alice,O=Example');
      expect(principal.attributes).to.deep.include({ cn: ['alice'], o: ['Example'], mail: ['alice@example.org'] });
      expect(credentials).to.deep.equal([{ id: 'CN=alice,O=Example', type: 'x509' }]);
    });

    it('takes DER in base64 too', async () => {
      expect((await x509Server(root).login({ cert: Buffer.from(alice.der).toString('base64') })).status).to.equal(201);
    });

    it('from a peer that is not a trusted proxy it is ignored (400 when alone) and the event is logged', async () => {
      const server = x509Server(root, { trusted: ELSEWHERE });
      const response = await server.login({ cert: alice.pem });
      expect(response.status).to.equal(400);
      expect(server.events.ofType('x509.certificate.ignored')).to.deep.equal([{ type: 'x509.certificate.ignored', source: 'form', reason: 'untrusted peer', peer: '127.0.0.1' }]);
      // With a password the request stands on the password alone.
      expect((await server.login({ username: 'casuser', password: 'Mellon', cert: alice.pem })).status).to.equal(201);
    });

    it('an unparsable certificate is not extracted: 400 when nothing else was, reported as unreadable', async () => {
      const server = x509Server(root);
      const response = await server.login({ cert: '-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----' });
      expect(response.status).to.equal(400);
      expect(server.events.ofType('x509.certificate.ignored')[0]).to.include({ source: 'form', reason: 'unreadable' });
      expect((await server.login({ cert: 'hello' })).status).to.equal(400);
      expect((await server.login({ username: 'casuser', password: 'Mellon', cert: 'hello' })).status).to.equal(201);
    });
  });

  describe('header ssl_client_cert', () => {
    it('PEM whose newlines a proxy turned into spaces is repaired', async () => {
      const server = x509Server(root);
      const response = await server.login({}, { ssl_client_cert: alice.pem.trim().replace(/\n/g, ' ') });
      expect(response.status, response.text).to.equal(201);
    });

    it("nginx's URL-encoded $ssl_client_escaped_cert is read too; the header name is configurable", async () => {
      const server = x509Server(root, { headerName: 'X-SSL-Client-Cert' });
      expect((await server.login({}, { 'x-ssl-client-cert': encodeURIComponent(alice.pem) })).status).to.equal(201);
      expect((await server.login({}, { ssl_client_cert: alice.pem.replace(/\n/g, ' ') })).status).to.equal(400);
    });

    it('(null) or blank means no certificate: 400, nothing reported', async () => {
      const server = x509Server(root);
      expect((await server.login({}, { ssl_client_cert: '(null)' })).status).to.equal(400);
      expect((await server.login({}, { ssl_client_cert: ' ' })).status).to.equal(400);
      expect(server.events.ofType('x509.certificate.ignored')).to.deep.equal([]);
    });

    it('from an untrusted peer it is ignored and reported', async () => {
      const server = x509Server(root, { trusted: ELSEWHERE });
      expect((await server.login({}, { ssl_client_cert: alice.pem.replace(/\n/g, ' ') })).status).to.equal(400);
      expect(server.events.ofType('x509.certificate.ignored')[0]).to.include({ source: 'header', reason: 'untrusted peer' });
    });
  });

  describe('failures', () => {
    it('an untrusted or expired certificate answers 401 with the reason in authentication_exceptions', async () => {
      const server = x509Server(root);
      const stranger = await new TestPki(server.clock.now()).selfSigned({ subject: 'CN=mallory' });
      const untrusted = await server.login({ cert: stranger.pem });
      expect(untrusted.status).to.equal(401);
      expect(untrusted.body).to.deep.equal({ authentication_exceptions: [CERTIFICATE_REASONS.untrusted] });
      const expired = await root.issue({ subject: 'CN=old', notBefore: server.clock.now() - 2 * 86_400_000, notAfter: server.clock.now() - 1000 });
      expect((await server.login({ cert: expired.pem })).body).to.deep.equal({ authentication_exceptions: [CERTIFICATE_REASONS.expired] });
    });

    it('a certificate and a password must both pass and name one principal (CN resolution)', async () => {
      const server = x509Server(root, { principalId: 'cn' });
      const casuser = await root.issue({ subject: 'CN=casuser,O=Example' });
      expect((await server.login({ username: 'casuser', password: 'Mellon', cert: casuser.pem })).status).to.equal(201);
      expect((await server.login({ username: 'casuser', password: 'wrong', cert: casuser.pem })).status).to.equal(401);
      const mixed = await server.login({ username: 'casuser', password: 'Mellon', cert: alice.pem });
      expect(mixed.status).to.equal(401);
      expect(mixed.body).to.deep.equal({ authentication_exceptions: ['Credentials identify different principals.'] });
    });
  });

  it('renews with a certificate: POST /v1/tickets/{tgt} renew=true takes it as the fresh credential', async () => {
    const server = x509Server(root);
    const tgt = (await server.login({ cert: alice.pem })).text;
    const renewed = await server.http.post(`/cas/v1/tickets/${tgt}`).type('form').send({ service: APP, renew: 'true', cert: alice.pem });
    expect(renewed.status, renewed.text).to.equal(200);
    const someoneElse = await root.issue({ subject: 'CN=eve,O=Example' });
    expect((await server.http.post(`/cas/v1/tickets/${tgt}`).type('form').send({ service: APP, renew: 'true', cert: someoneElse.pem })).status).to.equal(401);
  });

  it('extractors that are not installed read nothing: form and header are ignored with only tls on', async () => {
    const server = x509Server(root, { sources: ['tls'] });
    expect((await server.login({ cert: alice.pem }, { ssl_client_cert: alice.pem.replace(/\n/g, ' ') })).status).to.equal(400);
    expect(server.events.ofType('x509.certificate.ignored')).to.deep.equal([]);
  });
});

describe('x509.trustedProxies matching (TCP peer address)', () => {
  it('matches addresses and CIDR ranges of both families, IPv4-mapped IPv6 peers as IPv4', () => {
    const trusted = trustedPeers(['127.0.0.1', '10.0.0.0/8', '2001:db8::/32', '::1']);
    for (const peer of ['127.0.0.1', '::ffff:127.0.0.1', '10.200.3.4', '::ffff:10.0.0.1', '2001:db8:1::5', '::1']) expect(trusted(peer), peer).to.equal(true);
    for (const peer of ['127.0.0.2', '11.0.0.1', '2001:db9::1', '', 'not-an-address']) expect(trusted(peer), peer).to.equal(false);
  });

  it('gives the same verdicts when asked again, after many other peers came and went', () => {
    const trusted = trustedPeers(['10.0.0.0/8']);
    for (let round = 0; round < 2; round += 1) {
      for (let host = 0; host < 1500; host += 1) expect(trusted(`11.0.${host >> 8}.${host & 255}`)).to.equal(false);
      expect(trusted('10.1.2.3')).to.equal(true);
      expect(trusted('11.1.2.3')).to.equal(false);
    }
  });

  it('refuses entries that are neither an address nor a CIDR range', () => {
    for (const entry of ['10.0.0.0/33', 'example.org', '10.0.0.0/8/1', '::1/129', '10.0.0.0/']) expect(() => trustedPeers([entry]), entry).to.throw(/not an IP address or CIDR range/);
  });
});
