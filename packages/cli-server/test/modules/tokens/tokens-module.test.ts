import { expect } from 'chai';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { ConfigurationError, parseConfig, startServer } from '@tessera/cli-server';
import { cryptoRandomSource } from '@tessera/core';
import { generateTokenKeys } from '@tessera/core/modules/tokens';
import { configProblems as problems } from '../../config-problems.js';

const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });

async function startFailure(raw: Record<string, unknown>): Promise<ConfigurationError> {
  const config = parseConfig({ server: { port: 0 }, modules: ['rest', 'tokens'], ...raw });
  return startServer({ config, log: quiet, auditLog: quiet }).then(
    async (server) => {
      await server.close();
      return expect.fail('expected the start to fail');
    },
    (error: unknown) => {
      expect(error).to.be.instanceOf(ConfigurationError);
      return error as ConfigurationError;
    },
  );
}

const pair = () => generateTokenKeys('A128CBC-HS256', cryptoRandomSource);

// keys: sizes checked at start, generated once into an owner-only key file
/** The module's checks across settings are made when it is on. */
const TOKENS_ON = ['rest', 'tokens'];

describe('tokens module settings and keys', () => {
  it('needs the rest module and takes tokens.* settings with CAS defaults', () => {
    expect(problems({ modules: ['tokens'] })).to.deep.equal(['modules[0]: module "tokens" needs module "rest", which is not enabled']);
    const config = parseConfig({ modules: ['rest', 'tokens'] });
    expect(config.tokens).to.deep.equal({ encryptionAlgorithm: 'A128CBC-HS256', keyFile: 'tessera-token-keys.json', requestParameters: [] });
  });

  it('copies only well-named, non-credential request parameters into tokens: credentials are what the enabled modules declare', () => {
    expect(parseConfig({ tokens: { requestParameters: ['deviceId', 'client.version'] } }).tokens.requestParameters).to.deep.equal(['deviceId', 'client.version']);
    // The central username + password always; a certificate and a code only when a module reads them.
    expect(problems({ modules: TOKENS_ON, tokens: { requestParameters: ['deviceId', 'password', 'username'] } })).to.deep.equal([
      'tokens.requestParameters[1]: "password" carries a credential, which never goes into a token',
      'tokens.requestParameters[2]: "username" carries a credential, which never goes into a token',
    ]);
    expect(parseConfig({ modules: TOKENS_ON, tokens: { requestParameters: ['cert', 'otp'] } }).tokens.requestParameters).to.deep.equal(['cert', 'otp']);
    const x509Form = { sources: ['form'], trustAnchors: ['ca.pem'], trustedProxies: ['127.0.0.1'] };
    expect(problems({ modules: [...TOKENS_ON, 'otp', 'x509'], x509: x509Form, tokens: { requestParameters: ['deviceId', 'cert', 'otp'] } })).to.deep.equal([
      'tokens.requestParameters[1]: "cert" carries a credential, which never goes into a token',
      'tokens.requestParameters[2]: "otp" carries a credential, which never goes into a token',
    ]);
    // The x509 module reads `cert` only from the form source.
    expect(parseConfig({ modules: [...TOKENS_ON, 'x509'], x509: { sources: ['header'], trustAnchors: ['ca.pem'], trustedProxies: ['127.0.0.1'] }, tokens: { requestParameters: ['cert'] } }).tokens.requestParameters).to.deep.equal(['cert']);
    expect(problems({ modules: ['rest', 'tokens', 'otp'], otp: { parameter: 'code' }, tokens: { requestParameters: ['otp', 'code'] } })).to.deep.equal(['tokens.requestParameters[1]: "code" carries a credential, which never goes into a token']);
    expect(problems({ modules: TOKENS_ON, tokens: { requestParameters: ['__proto__'] } })).to.deep.equal(['tokens.requestParameters[0]: expected a parameter name: a letter, then letters, digits, ., _ or -']);
    expect(problems({ modules: TOKENS_ON, tokens: { requestParameters: ['a', 'a'] } })).to.deep.equal(['tokens.requestParameters: lists a parameter twice']);
  });

  it('refuses configured keys of the wrong size, naming the setting', () => {
    expect(problems({ tokens: { signingKey: 'too-short' } })).to.deep.equal(['tokens.signingKey: expected at least 64 bytes for HS512, got 9']);
    const { encryptionKey } = pair();
    expect(problems({ tokens: { encryptionKey, encryptionAlgorithm: 'A256CBC-HS512' } })).to.deep.equal([
      'tokens.encryptionKey: expected 64 bytes for A256CBC-HS512, got 32',
    ]);
    expect(problems({ tokens: { encryptionAlgorithm: 'A192GCM' } })[0]).to.match(/^tokens\.encryptionAlgorithm: expected A128CBC-HS256/);
    expect(problems({ tokens: { issuer: 'not a url' } })[0]).to.match(/^tokens\.issuer: expected an absolute URL/);
  });

  it('writes a generated pair to the key file with mode 0600, and reads it back on the next start', async () => {
    const keyFile = join(mkdtempSync(join(tmpdir(), 'tessera-keys-')), 'keys.json');
    const first = await startServer({ config: parseConfig({ server: { port: 0 }, modules: ['rest', 'tokens'], tokens: { keyFile } }), log: quiet, auditLog: quiet });
    await first.close();
    expect(statSync(keyFile).mode & 0o777).to.equal(0o600);
    const written = readFileSync(keyFile, 'utf8');
    expect(JSON.parse(written)).to.have.all.keys('signingKey', 'encryptionKey');
    const second = await startServer({ config: parseConfig({ server: { port: 0 }, modules: ['rest', 'tokens'], tokens: { keyFile } }), log: quiet, auditLog: quiet });
    await second.close();
    expect(readFileSync(keyFile, 'utf8')).to.equal(written);
  });

  it('a key file that is not JSON or holds keys of the wrong size stops the start, naming tokens.keyFile', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'tessera-keys-'));
    const broken = join(directory, 'broken.json');
    writeFileSync(broken, '{');
    expect((await startFailure({ tokens: { keyFile: broken } })).message).to.match(/^tokens\.keyFile: .*broken\.json is not JSON/);
    const wrongSize = join(directory, 'wrong-size.json');
    writeFileSync(wrongSize, JSON.stringify(pair()));
    const error = await startFailure({ tokens: { keyFile: wrongSize, encryptionAlgorithm: 'A256CBC-HS512' } });
    expect(error.message).to.match(/^tokens\.keyFile: .*wrong-size\.json holds a key that does not fit: expected 64 bytes for A256CBC-HS512/);
  });

  it('uses configured keys without touching the key file', async () => {
    const keyFile = join(mkdtempSync(join(tmpdir(), 'tessera-keys-')), 'keys.json');
    const server = await startServer({ config: parseConfig({ server: { port: 0 }, modules: ['rest', 'tokens'], tokens: { ...pair(), keyFile } }), log: quiet, auditLog: quiet });
    await server.close();
    expect(() => statSync(keyFile)).to.throw(/ENOENT/);
  });
});
