import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { ConfigurationError, parseConfig, startServer } from '@tessera/cli-server';
import { HttpsProxyCallback, readCaBundle } from '@tessera/cli-server/modules/proxy';
import { freePort } from '@tessera/testkit';
import { HttpsCallbackListener } from '@tessera/testkit/modules/proxy';
import { TestPki, type TestAuthority } from '@tessera/testkit/pki';
import { configProblems as problems } from '../../config-problems.js';

const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
const fileWith = (text: string) => {
  const file = join(mkdtempSync(join(tmpdir(), 'tessera-proxy-')), 'ca.pem');
  writeFileSync(file, text);
  return file;
};
const REQUEST = { pgtId: 'PGT-1-abcdefghijklmnop-test', pgtIou: 'PGTIOU-2-abcdefghijklmnop-test' };

// The proxy module's callback over HTTPS and its settings (docs/protocol.md §13).
describe('proxy module: the callback over HTTPS and its settings', function () {
  this.timeout(20_000);
  let authority: TestAuthority;
  let stranger: TestAuthority;
  let listener: HttpsCallbackListener;
  const trusting = (timeoutMs = 5000) => new HttpsProxyCallback({ timeoutMs, ca: authority.certificate.pem });

  before(async () => {
    const pki = new TestPki();
    authority = await pki.rootAuthority('CN=callback test CA,O=tessera');
    stranger = await pki.rootAuthority('CN=stranger CA,O=elsewhere');
    listener = await HttpsCallbackListener.start(authority);
  });
  beforeEach(() => {
    listener.received.length = 0;
    listener.answer = { status: 200 };
  });
  after(() => listener.close());

  it('delivers on 200: one GET at the pgtUrl, its parameters kept, then pgtIou and pgtId', async () => {
    expect(await trusting().deliver({ url: listener.url('/cb?tenant=a%20b'), ...REQUEST })).to.deep.equal({ delivered: true });
    expect(listener.received.map((url) => url.pathname + url.search)).to.deep.equal([`/cb?tenant=a%20b&pgtIou=${REQUEST.pgtIou}&pgtId=${REQUEST.pgtId}`]);
  });

  it('does not deliver on any other answer, and follows no redirect', async () => {
    listener.answer = { status: 500 };
    expect(await trusting().deliver({ url: listener.url(), ...REQUEST })).to.deep.equal({ delivered: false, reason: 'status', status: 500 });
    listener.answer = { status: 302, location: listener.url('/elsewhere') };
    expect(await trusting().deliver({ url: listener.url(), ...REQUEST })).to.deep.equal({ delivered: false, reason: 'status', status: 302 });
    listener.answer = { status: 204 };
    expect(await trusting().deliver({ url: listener.url(), ...REQUEST })).to.deep.equal({ delivered: false, reason: 'status', status: 204 });
    expect(listener.received.map((url) => url.pathname)).to.deep.equal(['/pgtCallback', '/pgtCallback', '/pgtCallback']);
  });

  it('gives up on a callback slower than its timeout', async () => {
    listener.answer = { status: 200, delayMs: 3000 };
    const started = Date.now();
    expect(await trusting(300).deliver({ url: listener.url(), ...REQUEST })).to.deep.equal({ delivered: false, reason: 'timeout' });
    expect(Date.now() - started).to.be.below(2500);
  });

  it('refuses a certificate of a CA it does not trust, or one for another host; Node’s default CAs do not know the test CA', async () => {
    const untrusted = new HttpsProxyCallback({ timeoutMs: 5000, ca: stranger.certificate.pem });
    expect(await untrusted.deliver({ url: listener.url(), ...REQUEST })).to.deep.equal({ delivered: false, reason: 'certificate' });
    expect(await new HttpsProxyCallback({ timeoutMs: 5000 }).deliver({ url: listener.url(), ...REQUEST })).to.deep.equal({ delivered: false, reason: 'certificate' });
    const misnamed = await HttpsCallbackListener.start(authority, { certificateAddress: '127.0.0.2' });
    try {
      expect(await trusting().deliver({ url: misnamed.url(), ...REQUEST })).to.deep.equal({ delivered: false, reason: 'certificate' });
      expect(misnamed.received).to.deep.equal([]);
    } finally {
      await misnamed.close();
    }
    expect(listener.received).to.deep.equal([]);
  });

  it('reports a callback nobody listens at as unreachable', async () => {
    expect(await trusting().deliver({ url: `https://127.0.0.1:${await freePort()}/cb`, ...REQUEST })).to.deep.equal({ delivered: false, reason: 'unreachable' });
  });

  it('reads the CA file at start: one that is missing, empty of certificates or unreadable stops it, naming the setting', async () => {
    expect(readCaBundle(fileWith(`${authority.certificate.pem}\n${stranger.certificate.pem}`))).to.include('BEGIN CERTIFICATE');
    expect(() => readCaBundle('/nonexistent/ca.pem')).to.throw(ConfigurationError, /^proxy\.callback\.caFile: cannot read \/nonexistent\/ca\.pem \(ENOENT\)$/);
    expect(() => readCaBundle(fileWith('not a certificate'))).to.throw(ConfigurationError, /^proxy\.callback\.caFile: .*ca\.pem holds no PEM certificate$/);
    expect(() => readCaBundle(fileWith('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'))).to.throw(ConfigurationError, /ca\.pem: certificate 1 cannot be read$/);
    const config = parseConfig({ server: { port: 0 }, modules: ['rest', 'proxy'], proxy: { callback: { caFile: fileWith('nothing') } } });
    const error = await startServer({ config, log: quiet, auditLog: quiet }).then(
      async (server) => {
        await server.close();
        return expect.fail('expected the start to fail');
      },
      (thrown: unknown) => thrown,
    );
    expect(error).to.be.instanceOf(ConfigurationError);
    expect((error as Error).message).to.match(/^proxy\.callback\.caFile: /);
  });

  it('needs no other module; its settings have defaults and fail closed', () => {
    expect(parseConfig({ modules: ['login', 'proxy'] }).modules).to.deep.equal(['login', 'proxy']);
    expect(parseConfig({ modules: ['rest', 'proxy'] }).proxy).to.deep.equal({ callback: { timeoutMs: 5000 } });
    expect(problems({ proxy: { callback: { timeoutMs: 0 } } })).to.deep.equal(['proxy.callback.timeoutMs: expected a number from 1 to 60000']);
    expect(problems({ proxy: { callback: { timeout: 100 } } })).to.deep.equal(['proxy.callback.timeout: unknown setting']);
    expect(problems({ proxy: { callback: { caFile: '' } } })).to.deep.equal(['proxy.callback.caFile: expected a file path']);
  });
});
