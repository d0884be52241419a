import { expect } from 'chai';
import { APP, form, startTessera, type Tessera } from '../../support/tessera.js';

// docs/protocol.md §3 — POST /v1/tickets, over real HTTP against the composed server
describe('POST /v1/tickets — create a TGT (docs/protocol.md §3)', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startTessera();
  });
  after(() => tessera.close());

  const post = (init: RequestInit, headers: Record<string, string> = {}) =>
    fetch(`${tessera.url}/v1/tickets`, { ...init, headers: { ...(init.headers as Record<string, string>), ...headers } });

  it('201 with an absolute Location and, by default, the HTML form clients scrape', async () => {
    const response = await post(form({ username: 'casuser', password: 'Mellon' }));
    expect(response.status).to.equal(201);
    const location = response.headers.get('location')!;
    expect(location).to.match(new RegExp(`^${tessera.url}/v1/tickets/TGT-\\d+-[A-Za-z0-9-]{43}-e2e$`));
    expect(response.headers.get('content-type')).to.match(/^text\/html/);
    const body = await response.text();
    expect(body).to.include(`<form action="${location}" method="POST">`);
    expect(body).to.include('<title>201 CREATED</title>');
  });

  for (const accept of ['*/*', 'text/html,application/xhtml+xml', '']) {
    it(`Accept "${accept}" gets the HTML form`, async () => {
      const response = await post(form({ username: 'casuser', password: 'Mellon' }), { accept });
      expect(response.headers.get('content-type')).to.match(/^text\/html/);
    });
  }

  for (const accept of ['text/plain', 'application/json']) {
    it(`Accept ${accept} gets the bare id as text/plain`, async () => {
      const response = await post(form({ username: 'casuser', password: 'Mellon' }), { accept });
      expect(response.status).to.equal(201);
      expect(response.headers.get('content-type')).to.match(/^text\/plain/);
      const id = await response.text();
      expect(id).to.match(/^TGT-\d+-[A-Za-z0-9-]+-e2e$/);
      expect(response.headers.get('location')).to.equal(`${tessera.url}/v1/tickets/${id}`);
    });
  }

  it('accepts a JSON object body and query-string parameters', async () => {
    const json = await post({ method: 'POST', body: JSON.stringify({ username: 'casuser', password: 'Mellon' }) }, { 'content-type': 'application/json', accept: 'text/plain' });
    expect(json.status).to.equal(201);
    const query = await fetch(`${tessera.url}/v1/tickets?username=casuser&password=Mellon`, { method: 'POST', headers: { accept: 'text/plain' } });
    expect(query.status).to.equal(201);
  });

  it('bad credentials: 401 application/json with one reason per failed credential and no secrets', async () => {
    const response = await post(form({ username: 'casuser', password: 'wrong-secret' }));
    expect(response.status).to.equal(401);
    expect(response.headers.get('content-type')).to.match(/^application\/json/);
    const body = (await response.json()) as { authentication_exceptions: string[] };
    expect(body.authentication_exceptions).to.have.length(1);
    expect(JSON.stringify(body)).to.not.include('wrong-secret');
    expect(JSON.stringify(body)).to.not.match(/Exception|Error/);
  });

  it('unknown user answers exactly like a wrong password', async () => {
    const unknown = await post(form({ username: 'nobody', password: 'x' }));
    const wrong = await post(form({ username: 'casuser', password: 'x' }));
    expect(unknown.status).to.equal(wrong.status);
    expect(await unknown.text()).to.equal(await wrong.text());
  });

  it('missing or blank credentials: 400 text/plain', async () => {
    for (const fields of [{}, { username: 'casuser' }, { username: 'casuser', password: '   ' }, { username: '', password: 'Mellon' }]) {
      const response = await post(form(fields));
      expect(response.status, JSON.stringify(fields)).to.equal(400);
      expect(response.headers.get('content-type')).to.match(/^text\/plain/);
      expect(await response.text()).to.match(/credentials/i);
    }
  });

  it('service parameter: unregistered 403, disabled 403, access rules unmet 401, allowed 201', async () => {
    const create = (username: string, password: string, service: string) => post(form({ username, password, service }), { accept: 'text/plain' });
    expect((await create('casuser', 'Mellon', 'https://unknown.example.net/')).status).to.equal(403);
    expect((await create('casuser', 'Mellon', 'https://disabled.example.org/x')).status).to.equal(403);
    const denied = await create('alice', 'secret', 'https://staff.example.org/x');
    expect(denied.status).to.equal(401);
    expect(((await denied.json()) as { authentication_exceptions: string[] }).authentication_exceptions[0]).to.match(/access denied/i);
    expect((await create('casuser', 'Mellon', 'https://staff.example.org/x')).status).to.equal(201);
    expect((await create('casuser', 'Mellon', APP)).status).to.equal(201);
  });

  it('GET /v1/tickets is 405', async () => {
    const response = await fetch(`${tessera.url}/v1/tickets`);
    expect(response.status).to.equal(405);
  });

  it('a body type the server does not read is 415', async () => {
    for (const type of ['text/plain', 'application/xml', 'multipart/form-data; boundary=x']) {
      const response = await post({ method: 'POST', body: 'username=casuser&password=Mellon' }, { 'content-type': type });
      expect(response.status, type).to.equal(415);
    }
  });

  describe('rest.revision: earlier', () => {
    let earlier: Tessera;
    before(async () => {
      earlier = await startTessera({ rest: { revision: 'earlier' } });
    });
    after(() => earlier.close());

    it('answers bad credentials with 400, as CAS 4.x did', async () => {
      const response = await fetch(`${earlier.url}/v1/tickets`, form({ username: 'casuser', password: 'nope' }));
      expect(response.status).to.equal(400);
    });
  });
});
