import { expect } from 'chai';
import { CASUSER, testServer } from './harness.js';

describe('docs/protocol.md §2 credentials — where parameters come from', () => {
  it('reads a form body, a JSON object body (any charset parameter) or the query string', async () => {
    const server = testServer();
    expect((await server.http.post('/cas/v1/tickets').type('form').send(CASUSER)).status).to.equal(201);
    expect((await server.http.post('/cas/v1/tickets').type('json').send(CASUSER)).status).to.equal(201);
    const charset = await server.http.post('/cas/v1/tickets').set('Content-Type', 'application/json; charset=utf-8').send(JSON.stringify(CASUSER));
    expect(charset.status).to.equal(201);
    expect((await server.http.post('/cas/v1/tickets').query(CASUSER)).status).to.equal(201);
  });

  it('the body wins over the query string', async () => {
    const server = testServer();
    const bodyRight = await server.http.post('/cas/v1/tickets').query({ password: 'wrong' }).type('form').send(CASUSER);
    expect(bodyRight.status).to.equal(201);
    const bodyWrong = await server.http.post('/cas/v1/tickets').query(CASUSER).type('json').send({ password: 'wrong' });
    expect(bodyWrong.status).to.equal(401);
  });

  it('decodes form values literally: + is a space, brackets are part of a name, the first of repeated names counts', async () => {
    const server = testServer({ users: { 'jane doe': { password: 'a+b&c=d', attributes: {} } } });
    const spaced = await server.http.post('/cas/v1/users').type('form').send('username=jane+doe&password=a%2Bb%26c%3Dd&extra[deep]=1');
    expect(spaced.status).to.equal(200);
    const repeated = await server.http.post('/cas/v1/tickets').type('form').send('username=casuser&username=other&password=Mellon');
    expect(repeated.status).to.equal(201);
    const bracketed = await server.http.post('/cas/v1/tickets').type('form').send('username[0]=casuser&password=Mellon');
    expect(bracketed.status).to.equal(400);
  });

  it('a JSON value that is not a string → 400 naming the parameter', async () => {
    const server = testServer();
    for (const [name, value] of [['username', ['casuser']], ['password', { x: 1 }], ['service', 42], ['renew', true], ['extra', null]] as const) {
      const response = await server.http.post('/cas/v1/tickets').type('json').send({ ...CASUSER, [name]: value });
      expect(response.status, name).to.equal(400);
      expect(response.headers['content-type']).to.match(/^text\/plain/);
      expect(response.text).to.include(`'${name}'`);
    }
    expect(server.tickets.tickets.size).to.equal(0);
  });

  it('a JSON body that is not an object → 400', async () => {
    const server = testServer();
    for (const body of ['["casuser","Mellon"]', '"casuser"', 'null', '42']) {
      const response = await server.http.post('/cas/v1/tickets').type('json').send(body);
      expect(response.status, body).to.equal(400);
    }
  });

  it('malformed JSON → 400 that does not echo the body', async () => {
    const server = testServer();
    for (const body of ['{"username":"casuser","password":"Sup3rSecret"', '{"__proto__":{"x":1},"username":"a","password":"Sup3rSecret"}']) {
      const response = await server.http.post('/cas/v1/tickets').set('Content-Type', 'application/json').send(body);
      expect(response.status, body).to.equal(400);
      expect(response.headers['content-type']).to.match(/^text\/plain/);
      expect(response.text).not.to.include('Sup3rSecret');
    }
    expect(server.events.ofType('server.error')).to.deep.equal([]);
  });

  describe('415 for a body of any other media type, on every route', () => {
    const unreadable: Record<string, string> = {
      'text/plain': 'username=casuser&password=Mellon',
      'application/xml': '<credentials/>',
      'multipart/form-data; boundary=x': '--x--',
      'application/vnd.api+json': '{}',
    };
    for (const [type, body] of Object.entries(unreadable)) {
      it(`POST /v1/tickets with ${type}`, async () => {
        const server = testServer();
        const response = await server.http.post('/cas/v1/tickets').set('Content-Type', type).send(body);
        expect(response.status).to.equal(415);
        expect(response.headers['content-type']).to.match(/^text\/plain/);
        expect(server.tickets.tickets.size).to.equal(0);
      });
    }

    it('a body without any Content-Type', async () => {
      const server = testServer();
      const response = await server.http.post('/cas/v1/tickets').set('Content-Length', '5').send(Buffer.from('hello'));
      expect(response.status).to.equal(415);
    });

    it('GET status, DELETE and POST /v1/tickets/{tgt} refuse it too', async () => {
      const server = testServer();
      expect((await server.http.get('/cas/v1/tickets/TGT-1-x').set('Content-Type', 'text/plain').send('x')).status).to.equal(415);
      expect((await server.http.delete('/cas/v1/tickets/TGT-1-x').set('Content-Type', 'text/plain').send('x')).status).to.equal(415);
      expect((await server.http.post('/cas/v1/tickets/TGT-1-x').set('Content-Type', 'text/xml').send('<x/>')).status).to.equal(415);
    });

    it('an empty body of any type is no body', async () => {
      const response = await testServer().http.post('/cas/v1/tickets').query(CASUSER).set('Content-Type', 'text/plain').send('');
      expect(response.status).to.equal(201);
    });
  });

  it('a body over maxBodyBytes → 413, form or JSON', async () => {
    const server = testServer({ options: { maxBodyBytes: 100 } });
    const padding = 'x'.repeat(200);
    expect((await server.http.post('/cas/v1/tickets').type('form').send({ ...CASUSER, padding })).status).to.equal(413);
    const json = await server.http.post('/cas/v1/tickets').type('json').send({ ...CASUSER, padding });
    expect(json.status).to.equal(413);
    expect(json.headers['content-type']).to.match(/^text\/plain/);
    expect((await server.http.post('/cas/v1/tickets').type('form').send(CASUSER)).status).to.equal(201);
  });

  it('malformed percent-encoding anywhere never answers 5xx', async () => {
    const server = testServer();
    const attempts = [
      server.http.post('/cas/v1/tickets').type('form').send('username=%E0%A4%A&password=%ZZ'),
      server.http.post('/cas/v1/tickets?username=%&password=%E0').type('form').send(''),
      server.http.post('/cas/v1/tickets').type('json').send('{"username":"%E0%A4%A","password":"%"}'),
      server.http.get('/cas/v1/tickets/TGT-%E0%A4%A'),
      server.http.delete('/cas/v1/tickets/%ZZ'),
      server.http.post('/cas/v1/tickets/%E0%A4').type('form').send('service=%'),
      server.http.get('/cas/%E0%A4%A'),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status, `${response.status} ${response.text}`).to.be.within(200, 499);
    }
    expect(server.events.ofType('server.error')).to.deep.equal([]);
  });
});
