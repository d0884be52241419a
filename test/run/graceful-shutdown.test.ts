import { expect } from 'chai';
import { connect } from 'node:net';
import { startTessera } from '../support/tessera.js';

// graceful shutdown: in-flight requests finish
describe('graceful shutdown', () => {
  it('a request in flight when close() starts still gets its answer; new connections are refused', async () => {
    const tessera = await startTessera();
    const { port, pathname } = new URL(tessera.url);
    const body = 'username=casuser&password=Mellon';
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    // Headers and half the body now, the rest after shutdown has begun.
    socket.write(
      `POST ${pathname}/v1/tickets HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/plain\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closing = tessera.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const refused = await fetch(`${tessera.url}/v1/tickets/TGT-1-x`).then(
      () => false,
      () => true,
    );
    socket.write(body.slice(10));
    await closing;
    await ended;
    expect(answer).to.match(/^HTTP\/1\.1 201/);
    expect(answer).to.match(/\r\nconnection: close\r\n/i);
    expect(answer).to.match(/TGT-\d+-/);
    expect(refused).to.equal(true);
  });

  it('a request in flight through hundreds of answered ones still has its connection closed after its answer', async () => {
    const tessera = await startTessera();
    const { port, pathname } = new URL(tessera.url);
    const body = 'username=casuser&password=Mellon';
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write(
      `POST ${pathname}/v1/tickets HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/plain\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (let round = 0; round < 30; round++) {
      const statuses = await Promise.all(Array.from({ length: 10 }, () => fetch(`${tessera.url}/v1/tickets/TGT-1-x`).then((response) => response.status)));
      expect(statuses).to.deep.equal(Array.from({ length: 10 }, () => 404));
    }
    const closing = tessera.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.write(body.slice(10));
    await closing;
    await ended;
    expect(answer).to.match(/^HTTP\/1\.1 201/);
    expect(answer).to.match(/\r\nconnection: close\r\n/i);
  });
});
