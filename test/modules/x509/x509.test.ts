import { expect } from 'chai';
import { XMLParser } from 'fast-xml-parser';
import { CERTIFICATE_REASONS } from '@tessera/core/modules/x509';
import { samlResponse, soapRequest, type Node } from '../../support/saml.js';
import { APP, form, startTessera, type Tessera } from '../../support/tessera.js';
import { overHttps, type HttpsOptions } from '../../support/https.js';
import { FORM, makePkiFiles, type PkiFiles } from './support.js';

const LOCAL = ['127.0.0.1', '::1'];
const server = (overrides: Record<string, unknown> = {}) => ({ server: { host: '127.0.0.1', port: 0, nodeName: 'e2e', ...overrides } });
const x509 = (pki: PkiFiles, overrides: Record<string, unknown> = {}) => ({
  modules: ['rest', 'x509'],
  x509: { trustAnchors: [pki.files.root], crl: { files: [pki.files.crl] }, ...overrides },
});
const flattened = (pem: string) => pem.trim().replace(/\n/g, ' ');

// A client holding a certificate of a configured CA gets a TGT through each enabled path
describe('x509 module end to end (docs/protocol.md §2, §7)', () => {
  let pki: PkiFiles;
  before(async () => {
    pki = await makePkiFiles();
  });
  after(() => pki.remove());

  describe('TLS client certificates on the HTTPS listener (server.tls)', () => {
    let tessera: Tessera;
    before(async () => {
      tessera = await startTessera({
        ...server({ tls: { cert: pki.files.serverCert, key: pki.files.serverKey, clientCa: pki.files.root } }),
        ...x509(pki, { sources: ['tls'] }),
      });
    });
    after(() => tessera.close());

    const post = (path: string, options: Omit<HttpsOptions, 'ca'> = {}) => overHttps(`${tessera.url}${path}`, { headers: FORM, ...options, ca: pki.root.certificate.pem });

    it('serves https:// and logs in the holder of a certificate of the trust anchor: TGT, ST, validation as the subject DN', async () => {
      expect(tessera.url).to.match(/^https:\/\/127\.0\.0\.1:\d+\/cas$/);
      const created = await post('/v1/tickets', { client: pki.alice, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(created.status, created.body).to.equal(201);
      const location = String(created.headers['location']);
      expect(location).to.match(new RegExp(`^${tessera.url}/v1/tickets/TGT-`));
      const tgt = location.slice(location.lastIndexOf('/') + 1);
      const st = await post(`/v1/tickets/${tgt}`, { body: new URLSearchParams({ service: APP }).toString() });
      expect(st.status, st.body).to.equal(200);
      const validated = await overHttps(`${tessera.url}/p3/serviceValidate?service=${encodeURIComponent(APP)}&ticket=${st.body}`, { method: 'GET', ca: pki.root.certificate.pem });
      const success = (new XMLParser().parse(validated.body) as { 'cas:serviceResponse': { 'cas:authenticationSuccess': Record<string, unknown> } })['cas:serviceResponse']['cas:authenticationSuccess'];
      expect(success['cas:user']).to.equal('CN=alice,OU=People,O=Example');
      expect(success['cas:attributes']).to.deep.include({ 'cas:cn': 'alice', 'cas:ou': 'People', 'cas:mail': 'alice@example.org', 'cas:subjectDn': 'CN=alice,OU=People,O=Example' });
    });

    it('answers a bad certificate with 401 and its reason instead of dropping the handshake', async () => {
      for (const [client, reason] of [
        [pki.revoked, CERTIFICATE_REASONS.revoked],
        [pki.expired, CERTIFICATE_REASONS.expired],
        [pki.selfSigned, CERTIFICATE_REASONS.untrusted],
      ] as const) {
        const answer = await post('/v1/tickets', { client });
        expect(answer.status, reason).to.equal(401);
        expect(JSON.parse(answer.body)).to.deep.equal({ authentication_exceptions: [reason] });
      }
    });

    it('without a client certificate there is no credential: 400', async () => {
      expect((await post('/v1/tickets')).status).to.equal(400);
    });

    it('/v1/users names the certificate credential by its subject', async () => {
      const answer = await post('/v1/users', { client: pki.alice });
      expect(answer.status, answer.body).to.equal(200);
      expect((JSON.parse(answer.body) as { authentication: { credentials: unknown } }).authentication.credentials).to.deep.equal([{ id: 'CN=alice,OU=People,O=Example', type: 'x509' }]);
    });
  });

  describe('form parameter cert and the proxy header, from a trusted proxy (plain HTTP)', () => {
    let tessera: Tessera;
    before(async () => {
      tessera = await startTessera({ ...server(), ...x509(pki, { sources: ['form', 'header'], trustedProxies: LOCAL }) });
    });
    after(() => tessera.close());

    const login = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
      fetch(`${tessera.url}/v1/tickets`, { ...form(fields), headers: { ...FORM, ...headers } });

    it('logs in with the PEM in the form (URL-encoded) and in the header (newlines flattened, as Apache sends it)', async () => {
      const byForm = await login({ cert: pki.alice.pem });
      expect(byForm.status, await byForm.clone().text()).to.equal(201);
      expect(await byForm.text()).to.match(/^TGT-/);
      expect((await login({}, { ssl_client_cert: flattened(pki.alice.pem) })).status).to.equal(201);
    });

    it('a SAML 1.1 assertion of a certificate login names the X509-PKI authentication method, as the x509 module declares it', async () => {
      const created = await login({ cert: pki.alice.pem });
      const st = await (await fetch(`${tessera.url}/v1/tickets/${await created.text()}`, form({ TARGET: APP }))).text();
      const validated = await fetch(`${tessera.url}/samlValidate?TARGET=${encodeURIComponent(APP)}`, { method: 'POST', headers: { 'content-type': 'text/xml' }, body: soapRequest(st) });
      const statement = (samlResponse(await validated.text())['Assertion'] as Node)['AuthenticationStatement'];
      expect(statement).to.include({ '@_AuthenticationMethod': 'urn:oasis:names:tc:SAML:1.0:am:X509-PKI' });
    });

    it('refuses a revoked or untrusted certificate with 401, and an unreadable one alone with 400', async () => {
      const revoked = await login({ cert: pki.revoked.pem });
      expect(revoked.status).to.equal(401);
      expect(await revoked.json()).to.deep.equal({ authentication_exceptions: [CERTIFICATE_REASONS.revoked] });
      expect((await login({}, { ssl_client_cert: flattened(pki.selfSigned.pem) })).status).to.equal(401);
      expect((await login({ cert: 'not a certificate' })).status).to.equal(400);
      expect((await login({}, { ssl_client_cert: '(null)' })).status).to.equal(400);
      expect(tessera.logs.some((line) => line.includes('"event":"x509.certificate.ignored"') && line.includes('"reason":"unreadable"'))).to.equal(true);
    });
  });

  // docs/protocol.md §7.1: a header or form certificate counts only from a trusted proxy
  describe('from a peer that is not a trusted proxy', () => {
    let tessera: Tessera;
    before(async () => {
      tessera = await startTessera({ ...server(), ...x509(pki, { sources: ['form', 'header'], trustedProxies: ['10.0.0.0/8'] }) });
    });
    after(() => tessera.close());

    it('ignores the header and the form field (400: no credential) and logs the peer', async () => {
      const header = await fetch(`${tessera.url}/v1/tickets`, { method: 'POST', headers: { ...FORM, ssl_client_cert: flattened(pki.alice.pem) } });
      expect(header.status).to.equal(400);
      const field = await fetch(`${tessera.url}/v1/tickets`, { ...form({ cert: pki.alice.pem }), headers: FORM });
      expect(field.status).to.equal(400);
      const ignored = tessera.logs.filter((line) => line.includes('"event":"x509.certificate.ignored"')).map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(ignored.map(({ source, reason, peer, level }) => ({ source, reason, peer, level }))).to.deep.equal([
        { source: 'header', reason: 'untrusted peer', peer: '127.0.0.1', level: 'warn' },
        { source: 'form', reason: 'untrusted peer', peer: '127.0.0.1', level: 'warn' },
      ]);
    });
  });

  describe('a client certificate of an intermediate CA (x509.maxPathLength 2)', () => {
    let tessera: Tessera;
    before(async () => {
      tessera = await startTessera({
        ...server({ tls: { cert: pki.files.serverCert, key: pki.files.serverKey, clientCa: pki.files.root } }),
        ...x509(pki, { sources: ['tls', 'form'], trustedProxies: LOCAL, maxPathLength: 2, crl: { files: [] } }),
      });
    });
    after(() => tessera.close());

    const login = (options: Omit<HttpsOptions, 'ca'>) => overHttps(`${tessera.url}/v1/tickets`, { headers: FORM, ...options, ca: pki.root.certificate.pem });

    it('logs in when the intermediate comes along: in the TLS handshake, or as a second PEM block of the form field', async () => {
      const byTls = await login({ client: pki.bob, clientChain: [pki.issuingCa.certificate] });
      expect(byTls.status, byTls.body).to.equal(201);
      const byForm = await login({ body: new URLSearchParams({ cert: pki.bob.pem + pki.issuingCa.certificate.pem }).toString() });
      expect(byForm.status, byForm.body).to.equal(201);
    });

    it('without the intermediate there is no path to the trust anchor: 401', async () => {
      const alone = await login({ body: new URLSearchParams({ cert: pki.bob.pem }).toString() });
      expect(JSON.parse(alone.body)).to.deep.equal({ authentication_exceptions: [CERTIFICATE_REASONS.untrusted] });
    });
  });

  describe('a password and a certificate in one request (principal from the CN)', () => {
    let tessera: Tessera;
    before(async () => {
      tessera = await startTessera({
        ...server({ tls: { cert: pki.files.serverCert, key: pki.files.serverKey } }),
        ...x509(pki, { sources: ['tls', 'form'], trustedProxies: LOCAL, principal: 'cn' }),
      });
    });
    after(() => tessera.close());

    const login = (fields: Record<string, string>, client = pki.casuser) =>
      overHttps(`${tessera.url}/v1/tickets`, { ca: pki.root.certificate.pem, client, headers: FORM, body: new URLSearchParams(fields).toString() });

    it('both must pass and name the same principal: casuser’s password with the certificate CN=casuser', async () => {
      expect((await login({ username: 'casuser', password: 'Mellon' })).status).to.equal(201);
      const wrongPassword = await login({ username: 'casuser', password: 'wrong' });
      expect(wrongPassword.status).to.equal(401);
      expect(JSON.parse(wrongPassword.body)).to.deep.equal({ authentication_exceptions: ['Invalid credentials. Please verify and try again.'] });
      const someoneElse = await login({ username: 'casuser', password: 'Mellon' }, pki.alice);
      expect(someoneElse.status).to.equal(401);
      expect(JSON.parse(someoneElse.body)).to.deep.equal({ authentication_exceptions: ['Credentials identify different principals.'] });
      const revokedCertificate = await login({ username: 'casuser', password: 'Mellon', cert: pki.revoked.pem });
      expect(JSON.parse(revokedCertificate.body)).to.deep.equal({ authentication_exceptions: [CERTIFICATE_REASONS.revoked] });
    });
  });
});
