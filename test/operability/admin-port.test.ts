import { expect } from 'chai';
import { connect } from 'node:net';
import { login, startTessera, type Tessera } from '../support/tessera.js';

const status = (url: string, init?: RequestInit) => fetch(url, init).then((response) => response.status);
const refused = (url: string) =>
  fetch(url).then(
    () => false,
    () => true,
  );

// docs/protocol.md §10 — admin.port: health and metrics on a listener of their own
describe('a separate admin port (docs/protocol.md §10)', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startTessera({ admin: { host: '127.0.0.1', port: 0 } });
  });
  after(() => tessera.close());

  it('serves health and metrics on the admin port, and none of them on the main port', async () => {
    const main = new URL(tessera.url).origin;
    const admin = tessera.server.adminUrl;
    expect(admin).to.match(/^http:\/\/127\.0\.0\.1:\d+$/).and.not.equal(main);
    for (const path of ['/health/live', '/health/ready', '/metrics']) {
      expect(await status(`${admin}${path}`), `admin ${path}`).to.equal(200);
      expect(await status(`${main}${path}`), `main ${path}`).to.equal(404);
    }
  });

  it('serves no CAS endpoint on the admin port', async () => {
    await login(tessera.url);
    expect(await status(`${tessera.server.adminUrl}/cas/v1/tickets`, { method: 'POST', body: 'username=casuser&password=Mellon' })).to.equal(404);
  });
});

describe('the admin port during shutdown (docs/protocol.md §10.1)', () => {
  it('readiness answers 503 "stopping" while requests drain, then the admin listener closes too', async () => {
    const tessera = await startTessera({ admin: { host: '127.0.0.1', port: 0 } });
    const { port, pathname } = new URL(tessera.url);
    const ready = `${tessera.server.adminUrl}/health/ready`;
    // A login whose body is only half sent keeps the main listener draining.
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const body = 'username=casuser&password=Mellon';
    socket.write(`POST ${pathname}/v1/tickets HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closing = tessera.close();

    const draining = await fetch(ready);
    expect(draining.status).to.equal(503);
    expect(await draining.json()).to.deep.equal({ status: 'stopping' });
    expect(await status(`${tessera.server.adminUrl}/health/live`)).to.equal(200);

    socket.end(body.slice(10));
    await closing;
    await ended;
    expect(answer).to.match(/^HTTP\/1\.1 201/);
    expect(await refused(ready)).to.equal(true);
  });
});

describe('metrics.enabled: false (docs/protocol.md §10.2)', () => {
  it('serves no /metrics, and the health endpoints as before', async () => {
    const tessera = await startTessera({ metrics: { enabled: false } });
    try {
      expect(await status(`${tessera.server.adminUrl}/metrics`)).to.equal(404);
      expect(await status(`${tessera.server.adminUrl}/health/ready`)).to.equal(200);
    } finally {
      await tessera.close();
    }
  });
});
