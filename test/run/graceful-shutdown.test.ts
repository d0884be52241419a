import { expect } from 'chai';
import { connect } from 'node:net';
import { startTessera, type Tessera } from '../support/tessera.js';

const LOGIN = 'username=casuser&password=Mellon';

/** A login whose headers and first bytes are sent, the rest held back: a request in flight. `finish` sends the rest; `answered` is what came back once the connection closed. */
async function loginInFlight(tessera: Tessera): Promise<{ finish(): void; answered: Promise<string> }> {
  const { port, pathname } = new URL(tessera.url);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  const answered = new Promise<string>((resolve) => socket.once('close', () => resolve(answer)));
  socket.write(
    `POST ${pathname}/v1/tickets HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/plain\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${LOGIN.length}\r\n\r\n${LOGIN.slice(0, 10)}`,
  );
  await new Promise((resolve) => setTimeout(resolve, 50));
  return { finish: () => socket.write(LOGIN.slice(10)), answered };
}

// graceful shutdown: in-flight requests finish
describe('graceful shutdown', () => {
  it('a request in flight when close() starts still gets its answer; new connections are refused', async () => {
    const tessera = await startTessera();
    const login = await loginInFlight(tessera);
    const closing = tessera.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const refused = await fetch(`${tessera.url}/v1/tickets/TGT-1-x`).then(
      () => false,
      () => true,
    );
    login.finish();
    await closing;
    const answer = await login.answered;
    expect(answer).to.match(/^HTTP\/1\.1 201/);
    expect(answer).to.match(/\r\nconnection: close\r\n/i);
    expect(answer).to.match(/TGT-\d+-/);
    expect(refused).to.equal(true);
  });

  it('a request in flight through hundreds of answered ones still has its connection closed after its answer', async () => {
    const tessera = await startTessera();
    const login = await loginInFlight(tessera);
    for (let round = 0; round < 30; round++) {
      const statuses = await Promise.all(Array.from({ length: 10 }, () => fetch(`${tessera.url}/v1/tickets/TGT-1-x`).then((response) => response.status)));
      expect(statuses).to.deep.equal(Array.from({ length: 10 }, () => 404));
    }
    const closing = tessera.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    login.finish();
    await closing;
    const answer = await login.answered;
    expect(answer).to.match(/^HTTP\/1\.1 201/);
    expect(answer).to.match(/\r\nconnection: close\r\n/i);
  });
});
