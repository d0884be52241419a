import { expect } from 'chai';
import { Argon2PasswordHasher } from '@tessera/core';
import { rawRequest } from '../../support/raw-http.js';
import { startTessera, type Tessera } from '../../support/tessera.js';

// docs/protocol.md §3.1: a client may close its sending side once its request is out (HTTP/1.0 tools,
// `nc -N`, some health checkers); the answer must still come, however long the login takes.
describe('a client that half-closes its connection after a whole request still gets the answer', () => {
  let tessera: Tessera;
  before(async () => {
    // An argon2 user: the answer waits on the thread pool, after the client's FIN has arrived.
    const passwordHash = await new Argon2PasswordHasher().hash('Mellon');
    tessera = await startTessera({ users: [{ username: 'casuser', passwordHash }] });
  });
  after(() => tessera.close());

  it('POST /v1/tickets answers 201 to a request followed by FIN', async () => {
    const path = new URL(tessera.url).pathname;
    const body = 'username=casuser&password=Mellon';
    const request = `POST ${path}/v1/tickets HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    expect(await rawRequest(tessera.url, request)).to.equal(201);
  });
});
