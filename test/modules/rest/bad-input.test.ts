import { expect } from 'chai';
import { APP, form, login, startTessera, type Tessera } from '../../support/tessera.js';
import { rawRequest } from '../../support/raw-http.js';

// docs/protocol.md §2–3 — bad input gets a clear 4xx, never a 5xx or a crash
describe('bad input (docs/protocol.md §2–3)', () => {
  let tessera: Tessera;
  let path: string;
  before(async () => {
    tessera = await startTessera();
    path = new URL(tessera.url).pathname;
  });
  after(() => tessera.close());

  async function expectStillServing(): Promise<void> {
    expect((await login(tessera.url)).startsWith('TGT-')).to.equal(true);
  }

  it('a huge body is 413', async () => {
    const response = await fetch(`${tessera.url}/v1/tickets`, form({ username: 'casuser', password: 'x'.repeat(2_000_000) }));
    expect(response.status).to.equal(413);
    await expectStillServing();
  });

  it('malformed JSON is 400; a JSON body that is not an object of strings is 400', async () => {
    for (const body of ['{"username": "casuser", ', '[1,2]', '"text"', '{"username": ["casuser"], "password": "Mellon"}', '{"username": {"$ne": 1}, "password": "Mellon"}']) {
      const response = await fetch(`${tessera.url}/v1/tickets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(response.status, body).to.equal(400);
    }
  });

  it('malformed percent-encoding in the body, query or path never gives a 5xx', async () => {
    const requests = [
      `POST ${path}/v1/tickets HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 31\r\nConnection: close\r\n\r\nusername=%zz&password=%E0%A4%A`,
      `GET ${path}/p3/serviceValidate?service=%zz&ticket=%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      `GET ${path}/v1/tickets/%zz%E0 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      `DELETE ${path}/v1/tickets/%C0%AF HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      `POST ${path}/v1/tickets/%zz HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 9\r\nConnection: close\r\n\r\nservice=x`,
    ];
    for (const request of requests) {
      const status = await rawRequest(tessera.url, request);
      expect(status, request.split('\r\n')[0]).to.be.within(200, 499);
    }
    await expectStillServing();
  });

  it('unknown ticket formats are 404 for REST and INVALID_TICKET for validation', async () => {
    for (const id of ['x', 'TGT-', 'ST-1', '../../etc/passwd', "'; DROP TABLE tickets; --", '<script>']) {
      const status = await fetch(`${tessera.url}/v1/tickets/${encodeURIComponent(id)}`);
      expect(status.status, id).to.equal(404);
      const grant = await fetch(`${tessera.url}/v1/tickets/${encodeURIComponent(id)}`, form({ service: APP }));
      expect(grant.status, id).to.equal(404);
      const body = await (await fetch(`${tessera.url}/p3/serviceValidate?service=${encodeURIComponent(APP)}&ticket=${encodeURIComponent(id)}`)).text();
      expect(body, id).to.include('INVALID_TICKET');
      expect(body).to.not.include('<script>');
    }
  });

  it('unusual methods and unknown paths are 4xx', async () => {
    expect((await fetch(`${tessera.url}/v1/tickets`, { method: 'PUT' })).status).to.equal(405);
    expect((await fetch(`${tessera.url}/v1/nothing`)).status).to.equal(404);
    expect((await fetch(`${tessera.url}/../admin`)).status).to.be.within(400, 499);
    const status = await rawRequest(tessera.url, `BREW ${path}/v1/tickets HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(status).to.be.within(400, 499);
  });

  it('a content type with odd parameters or casing is read when it is form or JSON', async () => {
    const response = await fetch(`${tessera.url}/v1/tickets`, {
      method: 'POST',
      headers: { 'content-type': 'Application/X-WWW-Form-Urlencoded; charset=UTF-8', accept: 'text/plain' },
      body: 'username=casuser&password=Mellon',
    });
    expect(response.status).to.equal(201);
  });

  it('the server survived all of it', async () => {
    await expectStillServing();
    expect(tessera.logs.some((line) => /"level":(50|60)/.test(line) && !line.includes('server.error'))).to.equal(false);
  });
});
