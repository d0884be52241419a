import { expect } from 'chai';
import { CasJwtCodec, type TokenKeys } from '@tessera/core/modules/tokens';
import { APP, CASUSER, JWT_APP, createTgt, testServer, testTokenKeys, type TestServer } from '../../harness.js';

function tokenServer(keys: TokenKeys = testTokenKeys()) {
  const server = testServer({ tokenKeys: keys });
  return { ...server, codec: new CasJwtCodec(keys, server.clock) };
}

async function jwtTgt(server: TestServer): Promise<string> {
  const response = await server.http.post('/cas/v1/tickets').type('form').send({ ...CASUSER, token: 'true' });
  expect(response.status, response.text).to.equal(201);
  return response.text;
}

function validate(server: TestServer, ticket: string, service: string) {
  return server.http.get('/cas/p3/serviceValidate').query({ service, ticket });
}

describe('docs/protocol.md §3 and §6 — JWT tickets (tokens module)', () => {
  it('token=true answers 201 text/plain with the stored TGT as a JWT and no Location', async () => {
    const server = tokenServer();
    const response = await server.http.post('/cas/v1/tickets').type('form').send({ ...CASUSER, token: 'true', service: APP });
    expect(response.status).to.equal(201);
    expect(response.headers['content-type']).to.match(/^text\/plain/);
    expect(response.headers).not.to.have.property('location');
    const claims = await server.codec.decode(response.text);
    expect(claims).to.include({ sub: 'casuser' });
    expect(claims).not.to.have.any.keys('username', 'password', 'token', 'service');
    expect(claims['iss']).to.match(/^http:\/\/127\.0\.0\.1:\d+\/cas$/).and.equal(claims['aud']);
    expect(await server.tickets.get(claims['jti'] as string)).to.include({ kind: 'TGT' });
  });

  it('the request header `token` triggers it too, with any true-value in any case; false does not', async () => {
    const server = tokenServer();
    for (const value of ['true', 'YES', 'on', 'y', 'T', '1']) {
      const response = await server.http.post('/cas/v1/tickets').set('token', value).set('Accept', 'text/plain').type('form').send(CASUSER);
      expect(response.status).to.equal(201);
      expect(await server.codec.decode(response.text)).to.include({ sub: 'casuser' });
    }
    const plain = await server.http.post('/cas/v1/tickets').set('token', 'false').set('Accept', 'text/plain').type('form').send(CASUSER);
    expect(plain.text).to.match(/^TGT-/);
    expect(plain.headers['location']).to.match(/\/cas\/v1\/tickets\/TGT-/);
  });

  it('with the module off, token=true is ignored and a JWT is just an unknown ticket', async () => {
    const withTokens = tokenServer();
    const jwt = await jwtTgt(withTokens);
    const server = testServer();
    const response = await server.http.post('/cas/v1/tickets').set('token', 'true').type('form').send({ ...CASUSER, token: 'true' });
    expect(response.status).to.equal(201);
    expect(response.headers['content-type']).to.match(/^text\/html/);
    expect(response.headers['location']).to.match(/\/TGT-/);
    expect((await server.http.get(`/cas/v1/tickets/${jwt}`)).status).to.equal(404);
    expect((await server.http.post(`/cas/v1/tickets/${jwt}`).type('form').send({ service: JWT_APP })).status).to.equal(404);
  });

  it('GET and POST /v1/tickets/{jwt} accept the TGT JWT in place of its id', async () => {
    const server = tokenServer();
    const jwt = await jwtTgt(server);
    const { jti } = await server.codec.decode(jwt);
    const status = await server.http.get(`/cas/v1/tickets/${jwt}`);
    expect(status.status).to.equal(200);
    expect(status.text).to.equal(jti);
    const st = await server.http.post(`/cas/v1/tickets/${jwt}`).type('form').send({ service: APP });
    expect(st.status).to.equal(200);
    expect(await server.tickets.get(st.text)).to.include({ kind: 'ST', tgtId: jti });
  });

  it('DELETE /v1/tickets/{jwt} logs out the TGT behind the JWT', async () => {
    const server = tokenServer();
    const jwt = await jwtTgt(server);
    const { jti } = await server.codec.decode(jwt);
    const response = await server.http.delete(`/cas/v1/tickets/${jwt}`);
    expect(response.status).to.equal(200);
    expect(response.text).to.equal(jwt);
    expect(await server.tickets.get(jti as string)).to.equal(undefined);
  });

  it('a tampered TGT JWT, or one signed with other keys, is an unknown ticket (404)', async () => {
    const server = tokenServer();
    const jwt = await jwtTgt(server);
    const [header, payload, signature] = jwt.split('.') as [string, string, string];
    const tampered = `${header}.${payload.slice(0, 30)}${payload[30] === 'x' ? 'y' : 'x'}${payload.slice(31)}.${signature}`;
    const foreign = await jwtTgt(tokenServer());
    for (const token of [tampered, foreign]) {
      expect((await server.http.get(`/cas/v1/tickets/${token}`)).status).to.equal(404);
      expect((await server.http.post(`/cas/v1/tickets/${token}`).type('form').send({ service: APP })).status).to.equal(404);
    }
  });

  it('a jwtAsServiceTicket service gets its ST as a JWT that validates once; the replay is refused', async () => {
    const server = tokenServer();
    const tgt = await createTgt(server);
    const response = await server.http.post(`/cas/v1/tickets/${tgt}`).type('form').send({ service: JWT_APP });
    expect(response.status).to.equal(200);
    expect(response.text).not.to.match(/^ST-/);
    const claims = await server.codec.decode(response.text, { audience: JWT_APP });
    expect(claims).to.include({ sub: 'casuser', aud: JWT_APP });
    expect(claims['memberOf']).to.deep.equal(['staff', 'faculty']);

    const first = await validate(server, response.text, JWT_APP);
    expect(first.status).to.equal(200);
    expect(first.text).to.include('<cas:user>casuser</cas:user>');
    const replay = await validate(server, response.text, JWT_APP);
    expect(replay.status).to.equal(400);
    expect(replay.text).to.include('code="INVALID_TICKET"');
  });

  it('other services keep plain ST ids with the module on', async () => {
    const server = tokenServer();
    const tgt = await createTgt(server);
    const response = await server.http.post(`/cas/v1/tickets/${tgt}`).type('form').send({ service: APP });
    expect(response.text).to.match(/^ST-/);
  });

  it('an expired JWT ST is refused', async () => {
    const server = tokenServer();
    const tgt = await createTgt(server);
    const jwt = (await server.http.post(`/cas/v1/tickets/${tgt}`).type('form').send({ service: JWT_APP })).text;
    server.clock.advanceSeconds(11);
    const response = await validate(server, jwt, JWT_APP);
    expect(response.status).to.equal(400);
    expect(response.text).to.include('code="INVALID_TICKET"');
  });
});
