import { expect } from 'chai';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { scrape, valueOf } from '../support/prometheus.js';
import { startTessera, type Tessera } from '../support/tessera.js';

const LOGIN = 'username=casuser&password=Mellon';
const SAML = 'https://app.example.org/home';

/** POST `body` as-is (fetch would not compress it itself) with the given Content-Encoding. */
function post(tessera: Tessera, path: string, body: Buffer | string, encoding: string, type = 'application/x-www-form-urlencoded'): Promise<Response> {
  return fetch(`${tessera.url}${path}`, { method: 'POST', headers: { 'content-type': type, 'content-encoding': encoding, accept: 'text/plain' }, body });
}

// A body the server cannot decode is the client's fault (400), an encoding it does not know 415,
// and a small body that inflates past server.maxBodyBytes 413: never a 5xx.
describe('Content-Encoding of request bodies', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startTessera({ server: { host: '127.0.0.1', port: 0, nodeName: 'e2e', maxBodyBytes: 4096 } });
  });
  after(() => tessera.close());

  it('gzip (or x-gzip), deflate and br bodies are read, the encoding named in any case', async () => {
    for (const [encoding, body] of [
      ['gzip', gzipSync(LOGIN)],
      ['GZip', gzipSync(LOGIN)],
      ['x-gzip', gzipSync(LOGIN)],
      ['deflate', deflateSync(LOGIN)],
      ['br', brotliCompressSync(LOGIN)],
      ['identity', Buffer.from(LOGIN)],
    ] as const) {
      const response = await post(tessera, '/v1/tickets', body, encoding);
      expect(response.status, encoding).to.equal(201);
    }
    const json = await post(tessera, '/v1/tickets', gzipSync(JSON.stringify({ username: 'casuser', password: 'Mellon' })), 'gzip', 'application/json');
    expect(json.status).to.equal(201);
  });

  it('a body that is not in its declared encoding is 400, on every body-reading route', async () => {
    const before = await scrape(tessera.server.adminUrl);
    const cases: [string, string, Buffer | string, string][] = [
      ['/v1/tickets', 'gzip', LOGIN, 'application/x-www-form-urlencoded'],
      ['/v1/tickets', 'gzip', gzipSync(LOGIN).subarray(0, 20), 'application/x-www-form-urlencoded'],
      ['/v1/tickets', 'deflate', 'not deflate at all', 'application/x-www-form-urlencoded'],
      ['/v1/tickets', 'br', Buffer.from([0xff, 0xff, 0xff, 0xff]), 'application/x-www-form-urlencoded'],
      ['/v1/tickets', 'gzip', '{"username":"casuser","password":"Mellon"}', 'application/json'],
      ['/v1/users', 'gzip', LOGIN, 'application/x-www-form-urlencoded'],
      [`/samlValidate?TARGET=${encodeURIComponent(SAML)}`, 'gzip', '<SOAP-ENV:Envelope/>', 'text/xml'],
    ];
    for (const [path, encoding, body, type] of cases) {
      const response = await post(tessera, path, body, encoding, type);
      expect(response.status, `${path} ${encoding} ${type}`).to.equal(400);
    }
    const after = await scrape(tessera.server.adminUrl);
    expect(valueOf(after, 'tessera_server_errors_total') - valueOf(before, 'tessera_server_errors_total')).to.equal(0);
    expect(tessera.logs.join('\n')).to.not.include('"server.error"');
  });

  it('an encoding the server does not know is 415', async () => {
    for (const encoding of ['compress', 'gzip, gzip', 'zstd', 'gzip;q=1']) {
      const response = await post(tessera, '/v1/tickets', LOGIN, encoding);
      expect(response.status, encoding).to.equal(415);
      expect(await response.text()).to.equal('The request body encoding is not supported');
    }
  });

  it('a small body that inflates past server.maxBodyBytes is 413, measured on the inflated bytes', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 'a'));
    expect(bomb.length).to.be.below(4096 * 20);
    const justOver = gzipSync(`${LOGIN}&pad=${'a'.repeat(4096)}`);
    expect(justOver.length).to.be.below(4096);
    for (const [path, body, type] of [
      ['/v1/tickets', bomb, 'application/x-www-form-urlencoded'],
      ['/v1/tickets', justOver, 'application/x-www-form-urlencoded'],
      ['/v1/tickets', bomb, 'application/json'],
      [`/samlValidate?TARGET=${encodeURIComponent(SAML)}`, bomb, 'text/xml'],
    ] as const) {
      const response = await post(tessera, path, body, 'gzip', type);
      expect(response.status, `${path} ${type} ${body.length}`).to.equal(413);
    }
    const withinLimit = gzipSync(`${LOGIN}&pad=${'a'.repeat(3000)}`);
    expect((await post(tessera, '/v1/tickets', withinLimit, 'gzip')).status).to.equal(201);
  });
});
