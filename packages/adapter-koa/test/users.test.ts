import { expect } from 'chai';
import { ADMIN_APP, APP, CASUSER, testServer, UNREGISTERED } from './harness.js';

describe('docs/protocol.md §3 POST /v1/users — authenticate only', () => {
  it('200 application/json with the authentication result, and no ticket', async () => {
    const server = testServer();
    const response = await server.http.post('/cas/v1/users').type('form').send({ ...CASUSER, service: APP });
    expect(response.status).to.equal(200);
    expect(response.headers['content-type']).to.match(/^application\/json/);
    expect(response.body).to.deep.equal({
      authentication: {
        principal: { id: 'casuser', attributes: { memberOf: ['staff', 'faculty'] } },
        authenticationDate: '2026-11-21T10:00:00.000Z',
        credentials: [{ id: 'casuser', type: 'usernamePassword' }],
        successes: { 'fake-users': { handlerName: 'fake-users', credentialType: 'usernamePassword', principalId: 'casuser' } },
        attributes: { credentialType: ['usernamePassword'], successfulAuthenticationHandlers: ['fake-users'] },
      },
      service: APP,
    });
    expect(Object.keys(response.body as object)).to.deep.equal(['authentication', 'service']);
    expect(response.text).not.to.include('Mellon');
    expect(server.tickets.tickets.size).to.equal(0);
  });

  it('service is null when none is given', async () => {
    const response = await testServer().http.post('/cas/v1/users').type('json').send(CASUSER);
    expect(response.status).to.equal(200);
    expect((response.body as { service: unknown }).service).to.equal(null);
  });

  it('fails as /v1/tickets: 400 without credentials, 401 JSON for bad ones, 403/401 for the service', async () => {
    const server = testServer();
    const none = await server.http.post('/cas/v1/users').type('form').send({ username: 'casuser' });
    expect(none.status).to.equal(400);
    expect(none.headers['content-type']).to.match(/^text\/plain/);
    const bad = await server.http.post('/cas/v1/users').type('form').send({ username: 'casuser', password: 'x' });
    expect(bad.status).to.equal(401);
    expect(bad.body).to.deep.equal({ authentication_exceptions: ['Authentication failed: invalid credentials.'] });
    expect((await server.http.post('/cas/v1/users').type('form').send({ ...CASUSER, service: UNREGISTERED })).status).to.equal(403);
    expect((await server.http.post('/cas/v1/users').type('form').send({ ...CASUSER, service: ADMIN_APP })).status).to.equal(401);
  });

  it('415 for a body it cannot read', async () => {
    const response = await testServer().http.post('/cas/v1/users').set('Content-Type', 'text/plain').send('username=casuser&password=Mellon');
    expect(response.status).to.equal(415);
  });
});
