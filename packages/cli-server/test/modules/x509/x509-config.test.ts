import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { buildContainer, ConfigurationError, createLogger, parseConfig, startServer, KEYS } from '@tessera/cli-server';
import { CrlFiles } from '@tessera/cli-server/modules/x509';
import { CERTIFICATE_REASONS, PkijsCertificateValidator } from '@tessera/core/modules/x509';
import { FixedClock } from '@tessera/testkit';
import { TestPki, type TestAuthority } from '@tessera/testkit/pki';
import { configProblems as problems } from '../../config-problems.js';
import { jsonLines } from '../../json-lines.js';

const x509On = (x509: Record<string, unknown>, rest: Record<string, unknown> = {}) => ({ modules: ['rest', 'x509'], x509, ...rest });

function capture() {
  const { lines, stream } = jsonLines();
  return { lines, logger: createLogger('info', stream) };
}

async function startFailure(raw: Record<string, unknown>): Promise<string> {
  const config = parseConfig({ server: { port: 0 }, ...raw });
  return startServer({ config, log: new Writable({ write: (_chunk, _encoding, done) => done() }) }).then(
    async (server) => {
      await server.close();
      return expect.fail('expected the start to fail');
    },
    (error: unknown) => {
      expect(error).to.be.instanceOf(ConfigurationError);
      return (error as ConfigurationError).message;
    },
  );
}

// x509.* and server.tls.* settings, refused at start with the exact setting named
describe('x509 module settings', () => {
  let dir: string;
  let root: TestAuthority;
  let rootFile: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tessera-x509-config-'));
    root = await new TestPki(new FixedClock().now()).rootAuthority();
    rootFile = join(dir, 'ca.pem');
    writeFileSync(rootFile, root.certificate.pem);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('needs no other module; has CAS-like defaults; nothing is required while the module is off', () => {
    expect(problems({ modules: ['x509'] })[0]).to.equal('x509.trustAnchors: is required with the x509 module: list the PEM files of the CAs to trust');
    expect(parseConfig({}).x509).to.deep.equal({
      sources: [],
      trustedProxies: [],
      headerName: 'ssl_client_cert',
      trustAnchors: [],
      maxPathLength: 1,
      requireKeyUsage: false,
      requireClientAuth: false,
      principal: 'subjectDn',
      crl: { files: [], refreshSeconds: 300, failClosed: true },
    });
  });

  it('names what an enabled module lacks: trust anchors, a source, trusted proxies for form and header, HTTPS for tls', () => {
    expect(problems(x509On({}))).to.deep.equal([
      'x509.trustAnchors: is required with the x509 module: list the PEM files of the CAs to trust',
      'x509.sources: name at least one of form, header, tls',
    ]);
    expect(problems(x509On({ trustAnchors: [rootFile], sources: ['header', 'tls', 'header'] }))).to.deep.equal([
      'x509.sources[2]: header is listed twice',
      'x509.sources[1]: tls needs an HTTPS listener: set server.tls.cert and server.tls.key',
      'x509.trustedProxies: is required when x509.sources lists form or header: only trusted proxies may send certificates',
    ]);
  });

  it('refuses malformed values with the setting named', () => {
    expect(problems({ x509: { trustedProxies: ['10.0.0.1', '10.0.0.0/33', 'proxy.example.org'] } })).to.deep.equal([
      'x509.trustedProxies[1]: expected an IP address or CIDR range, such as 10.0.0.5 or 10.0.0.0/24',
      'x509.trustedProxies[2]: expected an IP address or CIDR range, such as 10.0.0.5 or 10.0.0.0/24',
    ]);
    expect(problems({ x509: { sources: ['body'] } })).to.deep.equal(['x509.sources[0]: expected form, header or tls']);
    expect(problems({ x509: { subjectPattern: 'CN=(' } })).to.deep.equal(['x509.subjectPattern: is not a valid regular expression']);
    expect(problems({ x509: { principal: 'upn' } })).to.deep.equal(['x509.principal: expected subjectDn, cn, email, serialNumber']);
    expect(problems({ x509: { maxPathLength: 0 } })).to.deep.equal(['x509.maxPathLength: expected a number from 1 to 10']);
    expect(problems({ x509: { crl: { refreshSeconds: 0 } } })).to.deep.equal(['x509.crl.refreshSeconds: expected a number from 1 to 86400']);
    expect(problems({ x509: { headerName: 'ssl client cert' } })).to.deep.equal(['x509.headerName: expected a header name']);
  });

  it('server.tls: cert and key together; clientCa only with them', () => {
    expect(problems({ server: { tls: { cert: 'server.pem' } } })).to.deep.equal(['server.tls.key: set server.tls.cert and server.tls.key together']);
    expect(problems({ server: { tls: { clientCa: 'ca.pem' } } })).to.deep.equal(['server.tls.clientCa: needs server.tls.cert and server.tls.key']);
  });

  it('stops the start naming the trust anchor or CRL file that is missing or holds no certificate or CRL', async () => {
    const notPem = join(dir, 'not-a-certificate.pem');
    writeFileSync(notPem, 'hello');
    const base = { trustAnchors: [rootFile], sources: ['form'], trustedProxies: ['127.0.0.1'] };
    expect(await startFailure(x509On({ ...base, trustAnchors: [rootFile, join(dir, 'missing.pem')] }))).to.equal(`x509.trustAnchors[1]: cannot read ${join(dir, 'missing.pem')} (ENOENT)`);
    expect(await startFailure(x509On({ ...base, trustAnchors: [notPem] }))).to.match(/^x509\.trustAnchors\[0\]: .*not-a-certificate\.pem is neither PEM/);
    expect(await startFailure(x509On({ ...base, crl: { files: [rootFile] } }))).to.match(/^x509\.crl\.files\[0\]: .*ca\.pem expected one CRL/);
  });

  it('stops the start naming a server.tls file that cannot be read or used', async () => {
    const server = await root.issue({ subject: 'CN=127.0.0.1', ipAddress: '127.0.0.1' });
    const other = await root.issue({ subject: 'CN=other' });
    const cert = join(dir, 'server.pem');
    const key = join(dir, 'server.key');
    const otherKey = join(dir, 'other.key');
    writeFileSync(cert, server.pem);
    writeFileSync(key, server.privateKeyPem);
    writeFileSync(otherKey, other.privateKeyPem);
    expect(await startFailure({ server: { port: 0, tls: { cert: join(dir, 'nope.pem'), key } } })).to.equal(`server.tls.cert: cannot read ${join(dir, 'nope.pem')} (ENOENT)`);
    expect(await startFailure({ server: { port: 0, tls: { cert, key: otherKey } } })).to.match(/^server\.tls\.key: is not a PEM private key of server\.tls\.cert/);
    expect(await startFailure({ server: { port: 0, tls: { cert: key, key } } })).to.match(/^server\.tls\.cert: is not a PEM certificate/);
    const running = await startServer({ config: parseConfig({ server: { port: 0, tls: { cert, key } } }), log: new Writable({ write: (_chunk, _encoding, done) => done() }) });
    expect(running.url).to.match(/^https:\/\/127\.0\.0\.1:\d+\/cas$/);
    await running.close();
  });

  it('adds its extractors after username + password, in the order of x509.sources, and the x509 handler', () => {
    const config = parseConfig(x509On({ trustAnchors: [rootFile], sources: ['header', 'form'], trustedProxies: ['127.0.0.1'] }));
    const binder = buildContainer({ config, logger: createLogger('silent') });
    const reads = binder.getAll(KEYS.CredentialExtractor).map((extractor) => [...Object.keys(extractor.parameters), ...Object.keys(extractor.headers)]);
    expect(reads).to.deep.equal([['username', 'password'], ['ssl_client_cert'], ['cert']]);
    expect(binder.getAll(KEYS.CredentialHandler).map((handler) => handler.name)).to.deep.equal(['config-users', 'x509']);
  });

  // an operator replaces a CRL file without a restart
  describe('CRL files, read again after x509.crl.refreshSeconds on the clock', () => {
    it('picks up a replaced file once the refresh time has passed, and keeps the same lists while nothing changed', async () => {
      const file = join(dir, 'refresh.crl.pem');
      writeFileSync(file, (await root.revocationList()).pem);
      const clock = new FixedClock();
      const { lines, logger } = capture();
      const crls = new CrlFiles([file], 60, clock, logger);
      const first = await crls.current();
      expect(lines.map((line) => line['msg'])).to.deep.equal([`x509.crl.files[0]: CRL of CN=tessera test root CA,O=tessera read, next update 2026-11-22T10:00:00.000Z`]);
      const replaced = await root.revocationList({ revoked: [await root.issue({ subject: 'CN=gone' })] });
      writeFileSync(file, replaced.pem);
      clock.advanceSeconds(59);
      expect(await crls.current()).to.equal(first);
      clock.advanceSeconds(1);
      const second = await crls.current();
      expect(Buffer.from(second[0]!).toString('utf8')).to.equal(replaced.pem);
      clock.advanceSeconds(60);
      expect(await crls.current()).to.equal(second);
    });

    it('a certificate revoked in a replaced file is refused by the first login after the reload, though its chain was remembered', async () => {
      const file = join(dir, 'revoking.crl.pem');
      writeFileSync(file, (await root.revocationList()).pem);
      const clock = new FixedClock();
      const alice = await root.issue({ subject: 'CN=alice' });
      const lists = new CrlFiles([file], 60, clock, capture().logger);
      const validator = new PkijsCertificateValidator(
        { trustAnchors: [root.certificate.der], maxPathLength: 1, requireKeyUsage: false, requireClientAuth: false, revocation: { lists, failClosed: true } },
        clock,
      );
      expect((await validator.validate([alice.der])).subjectDn).to.equal('CN=alice');
      writeFileSync(file, (await root.revocationList({ revoked: [alice] })).pem);
      clock.advanceSeconds(59);
      expect((await validator.validate([alice.der])).subjectDn).to.equal('CN=alice');
      clock.advanceSeconds(1);
      expect(await validator.validate([alice.der]).then(() => 'accepted', (error: Error) => error.message)).to.equal(CERTIFICATE_REASONS.revoked);
    });

    it('keeps the CRL it has when the file disappears or goes bad, and logs it as an error', async () => {
      const file = join(dir, 'vanishing.crl.pem');
      const crl = await root.revocationList();
      writeFileSync(file, crl.pem);
      const clock = new FixedClock();
      const { lines, logger } = capture();
      const crls = new CrlFiles([file], 60, clock, logger);
      rmSync(file);
      clock.advanceSeconds(60);
      expect(Buffer.from((await crls.current())[0]!).toString('utf8')).to.equal(crl.pem);
      writeFileSync(file, 'garbage');
      clock.advanceSeconds(60);
      expect(Buffer.from((await crls.current())[0]!).toString('utf8')).to.equal(crl.pem);
      expect(lines.filter((line) => line['level'] === 'error').map((line) => line['msg'])).to.deep.equal([
        `x509.crl.files[0]: cannot use ${file} (ENOENT); keeping the CRL read before`,
        `x509.crl.files[0]: cannot use ${file} (the CRL cannot be read); keeping the CRL read before`,
      ]);
    });
  });
});
