import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { ConfigurationError, parseConfig, startServer } from '@tessera/cli-server';
import { httpsDownload } from '@tessera/cli-server/modules/saml2';
import { samlCredential } from '@tessera/testkit/modules/saml2';
import { configProblems as problems } from '../../config-problems.js';
import { EXTENDED_KEY_USAGE, KEY_USAGE, TestPki, type TestAuthority } from '@tessera/testkit/pki';

// The saml2 module's download of SP metadata from an https metadataLocation (docs/modules/saml2.md).
describe('saml2 module: SP metadata downloaded over HTTPS', function () {
  this.timeout(20_000);
  let authority: TestAuthority;
  let stranger: TestAuthority;
  let server: Server;
  let base = '';

  before(async () => {
    const pki = new TestPki();
    authority = await pki.rootAuthority('CN=metadata test CA');
    stranger = await pki.rootAuthority('CN=another CA');
    const certificate = await authority.issue({ subject: 'CN=federation', ipAddress: '127.0.0.1', extendedKeyUsages: [EXTENDED_KEY_USAGE.serverAuth], keyUsage: KEY_USAGE.digitalSignature });
    server = createServer({ cert: certificate.pem, key: certificate.privateKeyPem }, (request, response) => {
      if (request.url === '/sp.xml') response.writeHead(200, { 'Content-Type': 'application/samlmetadata+xml' }).end('<md:EntityDescriptor/>');
      else if (request.url === '/large.xml') response.writeHead(200).end('x'.repeat(100_000));
      else if (request.url === '/moved.xml') response.writeHead(302, { Location: '/sp.xml' }).end();
      else if (request.url === '/slow.xml') setTimeout(() => response.writeHead(200).end('late'), 2000).unref();
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  async function failure(run: Promise<unknown>): Promise<string> {
    return run.then(
      () => expect.fail('downloaded'),
      (error: Error) => error.message,
    );
  }

  it('gets the body of a 200 from a server its CA vouches for', async () => {
    expect(await httpsDownload({ timeoutMs: 5000, ca: authority.certificate.pem })(`${base}/sp.xml`, 1024)).to.equal('<md:EntityDescriptor/>');
  });

  it('refuses another status (redirects are not followed), a body too large, a server of another CA, and a slow one', async () => {
    const download = httpsDownload({ timeoutMs: 500, ca: authority.certificate.pem });
    expect(await failure(download(`${base}/none.xml`, 1024))).to.equal('it answered 404');
    expect(await failure(download(`${base}/moved.xml`, 1024))).to.equal('it answered 302');
    expect(await failure(download(`${base}/large.xml`, 1024))).to.equal('it is larger than 1024 bytes');
    expect(await failure(download(`${base}/slow.xml`, 1024))).to.equal('it took too long');
    expect(await failure(httpsDownload({ timeoutMs: 5000, ca: stranger.certificate.pem })(`${base}/sp.xml`, 1024))).to.match(/CERT|UNABLE_TO/);
  });
});

const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });

describe('saml2 module: settings, keys and the IdP metadata of a composed server', function () {
  this.timeout(120_000);

  it('is off by default, needs login and server.publicUrl, and fails closed on a bad key set', () => {
    expect(parseConfig({}).modules).to.not.include('saml2');
    expect(problems({ modules: ['saml2'] })).to.deep.equal(['modules[0]: module "saml2" needs module "login", which is not enabled']);
    expect(problems({ modules: ['login', 'saml2'] })).to.deep.equal(['server.publicUrl: is required by the saml2 module: its metadata names its endpoints under server.publicUrl + server.basePath']);
    expect(problems({ saml2: { keys: '{"signing": []}' } })).to.deep.equal(['saml2.keys: needs "signing": the current key, and at most a next or a previous one']);
    expect(problems({ saml2: { signatureAlgorithms: ['http://www.w3.org/2000/09/xmldsig#rsa-sha1'] } })[0]).to.match(/^saml2\.signatureAlgorithms\[0\]: expected one of /);
    expect(problems({ saml2: { maxMessageBytes: 100 } })).to.deep.equal(['saml2.maxMessageBytes: expected a number from 4096 to 1048576']);
    const defaults = parseConfig({ server: { publicUrl: 'https://cas.example.org' }, modules: ['login', 'saml2'] }).saml2;
    expect(defaults).to.deep.include({ signMetadata: false, assertionSeconds: 300, skewSeconds: 60, requestMaxAgeSeconds: 300, keyFile: 'tessera-saml2-keys.json' });
  });

  it('writes a key set (mode 0600) on first start, serves the metadata with it, and reads the same keys after a restart', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tessera-saml2-'));
    const keyFile = join(folder, 'saml2-keys.json');
    const config = parseConfig({ server: { port: 0, publicUrl: 'https://sso.example.org' }, modules: ['login', 'saml2'], login: { keyFile: join(folder, 'login.json') }, saml2: { keyFile, signMetadata: true } });
    const metadataOf = async () => {
      const server = await startServer({ config, log: quiet, auditLog: quiet });
      try {
        const response = await fetch(`${server.url}/idp/metadata`);
        expect(response.status).to.equal(200);
        expect(response.headers.get('content-type')).to.equal('application/samlmetadata+xml');
        return await response.text();
      } finally {
        await server.close();
      }
    };
    const first = await metadataOf();
    expect(statSync(keyFile).mode & 0o777).to.equal(0o600);
    const keys = JSON.parse(readFileSync(keyFile, 'utf8')) as { signing: { certificate: string }[] };
    const signing = new X509Certificate(keys.signing[0]!.certificate);
    expect(signing.subject).to.equal('CN=sso.example.org SAML signing');
    expect(first).to.contain('entityID="https://sso.example.org/cas/idp"');
    expect(first).to.contain('Location="https://sso.example.org/cas/idp/profile/SAML2/POST/SSO"');
    expect(first).to.contain(keys.signing[0]!.certificate.replace(/-----[A-Z ]+-----|\s/g, ''));
    expect(first).to.match(/<ds:Signature[^]*<ds:SignatureValue>/);
    const second = await metadataOf();
    expect(JSON.parse(readFileSync(keyFile, 'utf8'))).to.deep.equal(keys);
    expect(second).to.contain(keys.signing[0]!.certificate.replace(/-----[A-Z ]+-----|\s/g, ''));
  });

  it('during a rollover the metadata lists the current and the next signing certificate, and is signed by the current key', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tessera-saml2-'));
    const [current, next, encryption] = await Promise.all([samlCredential('CN=current'), samlCredential('CN=next'), samlCredential('CN=encryption')]);
    const keys = { signing: [{ state: 'current', ...current }, { state: 'next', ...next }], encryption: [{ state: 'current', ...encryption }], persistentIdSalt: 'a salt of at least thirty-two characters' };
    const config = parseConfig({ server: { port: 0, publicUrl: 'https://sso.example.org' }, modules: ['login', 'saml2'], login: { keyFile: join(folder, 'login.json') }, saml2: { keys: JSON.stringify(keys), signMetadata: true } });
    const server = await startServer({ config, log: quiet, auditLog: quiet });
    try {
      const metadata = await (await fetch(`${server.url}/idp/metadata`)).text();
      const body = (pem: string) => pem.replace(/-----[A-Z ]+-----|\s/g, '');
      const published = [...metadata.matchAll(/<md:KeyDescriptor use="(\w+)">[^]*?<ds:X509Certificate[^>]*>([^<]+)</g)].map((match) => [match[1], match[2]]);
      expect(published).to.deep.equal([
        ['signing', body(current.certificate)],
        ['signing', body(next.certificate)],
        ['encryption', body(encryption.certificate)],
      ]);
      // The signature's own KeyInfo names the key that signed: the current one.
      expect(/<ds:Signature[^]*?<ds:X509Certificate>([^<]+)</.exec(metadata)?.[1]).to.equal(body(current.certificate));
    } finally {
      await server.close();
    }
  });

  it('a key file that is no key set stops the start, naming the setting; with the module off, /idp/metadata is 404', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tessera-saml2-'));
    const keyFile = join(folder, 'saml2-keys.json');
    writeFileSync(keyFile, '{"signing": "no"}', { mode: 0o600 });
    const config = parseConfig({ server: { port: 0, publicUrl: 'https://sso.example.org' }, modules: ['login', 'saml2'], login: { keyFile: join(folder, 'login.json') }, saml2: { keyFile } });
    const error = await startServer({ config, log: quiet, auditLog: quiet }).then(
      async (server) => {
        await server.close();
        return expect.fail('expected the start to fail');
      },
      (thrown: unknown) => thrown,
    );
    expect(error).to.be.instanceOf(ConfigurationError);
    expect((error as Error).message).to.equal(`saml2.keyFile: ${keyFile} needs "signing": the current key, and at most a next or a previous one`);

    const off = await startServer({ config: parseConfig({ server: { port: 0 }, modules: ['login'], login: { keyFile: join(folder, 'login.json') } }), log: quiet, auditLog: quiet });
    try {
      expect((await fetch(`${off.url}/idp/metadata`)).status).to.equal(404);
    } finally {
      await off.close();
    }
  });
});
