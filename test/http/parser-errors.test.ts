import { expect } from 'chai';
import { cryptoRandomSource } from '@tessera/core';
import { generateTokenKeys } from '@tessera/core/modules/tokens';
import { scrape, valueOf } from '../support/prometheus.js';
import { converse } from '../support/raw-http.js';
import { login, startTessera, type Tessera } from '../support/tessera.js';

const BASIC = 'Basic Y2FzdXNlcjpNZWxsb24=';

/** A good login, its password in the body and an Authorization header, as one keep-alive client sends it. */
function goodLogin(path = '/cas/v1/tickets'): string {
  const body = 'username=casuser&password=Mellon';
  return (
    `POST ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${BASIC}\r\n` +
    `Content-Type: application/x-www-form-urlencoded\r\nAccept: text/plain\r\nContent-Length: ${body.length}\r\n\r\n${body}`
  );
}

const BAD_HEADER_LINE = 'GET /cas/v1/tickets HTTP/1.1\r\nHost: localhost\r\nBad Header Line\r\n\r\n';

// A request Node's HTTP parser cannot read is the client's fault: a 4xx or a closed connection, one
// log line naming the parser code and the peer, a metric of its own, and nothing of the bytes.
describe('requests the HTTP parser cannot read', () => {
  let tessera: Tessera;
  before(async () => {
    // Keys of its own: no key file is written into the checkout.
    const tokens = generateTokenKeys('A128CBC-HS256', cryptoRandomSource);
    tessera = await startTessera({ modules: ['rest', 'otp', 'tokens', 'services', 'throttle'], tokens, registration: { requiredAttribute: { name: 'memberOf', valuePattern: 'staff' } } });
  });
  after(() => tessera.close());

  const newLines = () => {
    const seen = tessera.logs.length;
    return () => tessera.logs.slice(seen).map((line) => JSON.parse(line) as Record<string, unknown>);
  };

  it('a bad header line after a good login on the same connection: 400, one line with the code and the peer, no bytes of the connection', async () => {
    const before = await scrape(tessera.server.adminUrl);
    const logged = newLines();
    const { statuses } = await converse(tessera.url, [goodLogin() + BAD_HEADER_LINE]);
    expect(statuses).to.deep.equal([400]);
    // The login itself may still finish: wait for its lines, then look at everything logged.
    await login(tessera.url);
    const lines = logged();
    const text = JSON.stringify(lines);
    for (const secret of ['Mellon', BASIC, 'Y2FzdXNlcjpNZWxsb24', 'rawPacket', 'bytesParsed', '[80,79,83,84']) expect(text).to.not.include(secret);
    const refused = lines.filter((line) => line['event'] === 'request.unreadable');
    expect(refused).to.have.length(1);
    const { level, time, pid, hostname, name, msg, ...fields } = refused[0]!;
    expect({ level, name, msg }).to.deep.equal({ level: 'warn', name: 'tessera', msg: 'request.unreadable' });
    expect([time, pid, hostname].every((value) => value !== undefined)).to.equal(true);
    expect(fields).to.deep.equal({ event: 'request.unreadable', code: 'HPE_INVALID_HEADER_TOKEN', peerAddress: '127.0.0.1' });
    expect(lines.filter((line) => line['event'] === 'server.error')).to.deep.equal([]);

    const after = await scrape(tessera.server.adminUrl);
    expect(valueOf(after, 'tessera_server_errors_total') - valueOf(before, 'tessera_server_errors_total')).to.equal(0);
    const refusals = (scraped: typeof after) => valueOf(scraped, 'tessera_unreadable_requests_total', { code: 'HPE_INVALID_HEADER_TOKEN' });
    expect(refusals(after) - refusals(before)).to.equal(1);
  });

  it('the same on the admin paths served by the main listener', async () => {
    const logged = newLines();
    const { statuses } = await converse(tessera.url, [`GET /metrics HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${BASIC}\r\n\r\n${BAD_HEADER_LINE}`]);
    expect(statuses[statuses.length - 1]).to.equal(400);
    const lines = logged();
    expect(JSON.stringify(lines)).to.not.include('Y2FzdXNlcjpNZWxsb24');
    expect(lines.map((line) => [line['event'], line['code']])).to.deep.equal([['request.unreadable', 'HPE_INVALID_HEADER_TOKEN']]);
  });

  for (const [what, bytes, status, code] of [
    ['a request line that is no HTTP', 'password=Mellon\r\n\r\n', 400, 'HPE_INVALID_METHOD'],
    ['a space before a header colon', `POST /cas/v1/tickets HTTP/1.1\r\nHost : x\r\nAuthorization: ${BASIC}\r\n\r\n`, 400, 'HPE_INVALID_HEADER_TOKEN'],
    ['both Content-Length and chunked', 'POST /cas/v1/tickets HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 400, 'HPE_INVALID_TRANSFER_ENCODING'],
    ['a bad chunk size', 'POST /cas/v1/tickets HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\npassword=Mellon\r\n0\r\n\r\n', 400, 'HPE_INVALID_CHUNK_SIZE'],
    ['headers larger than Node allows', `GET /cas/openapi.json HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\nAuthorization: ${BASIC}\r\n\r\n`, 431, 'HPE_HEADER_OVERFLOW'],
  ] as const) {
    it(`${what}: ${status}, counted under ${code}, never a server error`, async () => {
      const before = await scrape(tessera.server.adminUrl);
      const logged = newLines();
      const { statuses } = await converse(tessera.url, [bytes]);
      expect(statuses).to.deep.equal([status]);
      const lines = logged();
      expect(lines.map((line) => [line['event'], line['code']])).to.deep.equal([['request.unreadable', code]]);
      expect(JSON.stringify(lines)).to.not.include('Mellon').and.not.include('Y2FzdXNlcjpNZWxsb24');
      const after = await scrape(tessera.server.adminUrl);
      expect(valueOf(after, 'tessera_unreadable_requests_total', { code }) - valueOf(before, 'tessera_unreadable_requests_total', { code })).to.equal(1);
      expect(valueOf(after, 'tessera_server_errors_total')).to.equal(0);
    });
  }

  it('the server still answers', async () => {
    expect(await login(tessera.url)).to.match(/^TGT-/);
  });
});

describe('requests the admin listener (admin.port) cannot read', () => {
  it('are refused the same way, logged with the code and the peer only', async () => {
    const tessera = await startTessera({ admin: { port: 0 } });
    try {
      const seen = tessera.logs.length;
      const { statuses } = await converse(tessera.server.adminUrl, [`GET /metrics HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${BASIC}\r\n\r\n${BAD_HEADER_LINE}`]);
      expect(statuses[statuses.length - 1]).to.equal(400);
      const lines = tessera.logs.slice(seen).map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.map((line) => [line['event'], line['code'], line['peerAddress']])).to.deep.equal([['request.unreadable', 'HPE_INVALID_HEADER_TOKEN', '127.0.0.1']]);
      const metrics = await scrape(tessera.server.adminUrl);
      expect(valueOf(metrics, 'tessera_unreadable_requests_total', { code: 'HPE_INVALID_HEADER_TOKEN' })).to.equal(1);
      expect(valueOf(metrics, 'tessera_server_errors_total')).to.equal(0);
    } finally {
      await tessera.close();
    }
  });
});
