import { expect } from 'chai';
import { connect as connectTls } from 'node:tls';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXTENDED_KEY_USAGE, KEY_USAGE, TestPki } from '@tessera/testkit/pki';
import { scrape, valueOf } from '../support/prometheus.js';
import { converse } from '../support/raw-http.js';
import { login, startTessera, type Tessera } from '../support/tessera.js';

/** Short enough for a test, long enough that a loaded machine still sends a request in time. */
const TIMEOUTS = { headersMs: 400, requestMs: 900, keepAliveMs: 150 };
const SERVER = { host: '127.0.0.1', port: 0, nodeName: 'e2e', timeouts: TIMEOUTS };
/** How late the listener may close past a deadline: its checks run every few hundred ms, and the machine is shared. */
const SLACK_MS = 1_500;

const bytesOf = (text: string) => [...text];

// A client sending its request a byte at a time must not hold a connection for minutes.
describe('slow clients (server.timeouts)', function () {
  this.timeout(20_000);
  let tessera: Tessera;
  before(async () => {
    tessera = await startTessera({ server: SERVER });
  });
  after(() => tessera.close());

  it('headers trickled a byte at a time: 408 and closed once headersMs has passed', async () => {
    const logged = tessera.logs.length;
    const headers = bytesOf(`GET /cas/openapi.json HTTP/1.1\r\nHost: localhost\r\n${'X-Slow: y\r\n'.repeat(200)}\r\n`);
    const { statuses, closedAfterMs } = await converse(tessera.url, headers, { gapMs: 20 });
    expect(statuses).to.deep.equal([408]);
    expect(closedAfterMs).to.be.within(TIMEOUTS.headersMs - 50, TIMEOUTS.headersMs + SLACK_MS);
    const lines = tessera.logs.slice(logged).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => [line['event'], line['code'], line['peerAddress']])).to.deep.equal([['request.unreadable', 'ERR_HTTP_REQUEST_TIMEOUT', '127.0.0.1']]);
  });

  it('a connection that never sends a byte is closed once headersMs has passed', async () => {
    const { closedAfterMs } = await converse(tessera.url, []);
    expect(closedAfterMs).to.be.within(TIMEOUTS.headersMs - 50, TIMEOUTS.headersMs + SLACK_MS);
  });

  it('a body trickled a byte at a time after prompt headers: 408 and closed once requestMs has passed', async () => {
    const body = 'username=casuser&password=Mellon'.padEnd(300, '&');
    const head = `POST /cas/v1/tickets HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n`;
    const { statuses, closedAfterMs } = await converse(tessera.url, [head, ...bytesOf(body)], { gapMs: 20 });
    expect(statuses).to.deep.equal([408]);
    expect(closedAfterMs).to.be.within(TIMEOUTS.requestMs - 50, TIMEOUTS.requestMs + SLACK_MS);
  });

  it('a kept-alive connection left idle after its answer is closed once keepAliveMs has passed', async () => {
    // Node adds a second to keepAliveTimeout, so that a client never reuses a connection the server is closing.
    const { statuses, closedAfterMs } = await converse(tessera.url, ['GET /cas/openapi.json HTTP/1.1\r\nHost: localhost\r\n\r\n']);
    expect(statuses).to.deep.equal([200]);
    expect(closedAfterMs).to.be.within(TIMEOUTS.keepAliveMs, TIMEOUTS.keepAliveMs + 1_000 + SLACK_MS);
  });

  it('a second request on a kept-alive connection has requestMs of its own', async () => {
    const request = 'GET /cas/openapi.json HTTP/1.1\r\nHost: localhost\r\n\r\n';
    const slowSecond = bytesOf('GET /cas/openapi.json HTTP/1.1\r\nHost: localhost\r\n' + 'X-Slow: y\r\n'.repeat(200));
    const { statuses } = await converse(tessera.url, [request, ...slowSecond], { gapMs: 5 });
    expect(statuses).to.deep.equal([200, 408]);
  });

  it('timeouts are counted apart from server errors, and the server still answers', async () => {
    const metrics = await scrape(tessera.server.adminUrl);
    expect(valueOf(metrics, 'tessera_unreadable_requests_total', { code: 'ERR_HTTP_REQUEST_TIMEOUT' })).to.be.at.least(4);
    expect(valueOf(metrics, 'tessera_server_errors_total')).to.equal(0);
    expect(await login(tessera.url)).to.match(/^TGT-/);
  });
});

describe('slow clients on the HTTPS listener and the admin listener', function () {
  this.timeout(20_000);
  let dir: string;
  let files: { cert: string; key: string };
  before(async () => {
    const root = await new TestPki(Date.now()).rootAuthority('CN=tessera timeouts CA');
    const server = await root.issue({ subject: 'CN=127.0.0.1', ipAddress: '127.0.0.1', extendedKeyUsages: [EXTENDED_KEY_USAGE.serverAuth], keyUsage: KEY_USAGE.digitalSignature });
    dir = mkdtempSync(join(tmpdir(), 'tessera-timeouts-'));
    files = { cert: join(dir, 'server.pem'), key: join(dir, 'server.key') };
    writeFileSync(files.cert, server.pem);
    writeFileSync(files.key, server.privateKeyPem, { mode: 0o600 });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('HTTPS: a TCP connection that never starts its TLS handshake is closed once headersMs has passed', async () => {
    const tessera = await startTessera({ server: { ...SERVER, tls: files } });
    try {
      const { closedAfterMs } = await converse(tessera.url.replace('https:', 'http:'), []);
      expect(closedAfterMs).to.be.within(TIMEOUTS.headersMs - 50, TIMEOUTS.headersMs + SLACK_MS);
    } finally {
      await tessera.close();
    }
  });

  it('HTTPS: headers trickled inside TLS get 408 once headersMs has passed', async () => {
    const tessera = await startTessera({ server: { ...SERVER, tls: files } });
    try {
      const { port } = new URL(tessera.url);
      const started = Date.now();
      const answer = await new Promise<string>((resolve) => {
        let text = '';
        const socket = connectTls({ host: '127.0.0.1', port: Number(port), rejectUnauthorized: false }, () => {
          const timer = setInterval(() => socket.writable && socket.write('X-Slow: y\r\n'), 20);
          socket.write('GET /cas/openapi.json HTTP/1.1\r\nHost: localhost\r\n');
          socket.on('close', () => (clearInterval(timer), resolve(text)));
        });
        socket.setEncoding('latin1');
        socket.on('data', (chunk: string) => (text += chunk));
        socket.on('error', () => undefined);
      });
      expect(answer).to.match(/^HTTP\/1\.1 408 /);
      expect(Date.now() - started).to.be.within(TIMEOUTS.headersMs - 50, TIMEOUTS.headersMs + SLACK_MS);
    } finally {
      await tessera.close();
    }
  });

  it('the admin listener (admin.port) closes a connection that trickles its headers', async () => {
    const tessera = await startTessera({ server: SERVER, admin: { port: 0 } });
    try {
      const { statuses, closedAfterMs } = await converse(tessera.server.adminUrl, bytesOf(`GET /metrics HTTP/1.1\r\n${'X-Slow: y\r\n'.repeat(200)}`), { gapMs: 20 });
      expect(statuses).to.deep.equal([408]);
      expect(closedAfterMs).to.be.within(TIMEOUTS.headersMs - 50, TIMEOUTS.headersMs + SLACK_MS);
    } finally {
      await tessera.close();
    }
  });
});
