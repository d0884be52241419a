import { expect } from 'chai';
import { ADMIN_APP, APP, CASUSER, createTgt, grantSt, testServer, UNREGISTERED } from './harness.js';

const ST_ID = /^ST-\d+-[A-Za-z0-9-]+-test$/;

describe('docs/protocol.md §3 POST /v1/tickets/{tgt} — grant an ST', () => {
  it('answers 200 text/plain with the ST id, stored for the service', async () => {
    const server = testServer();
    const tgt = await createTgt(server);
    const response = await server.http.post(`/cas/v1/tickets/${tgt}`).type('form').send({ service: APP });
    expect(response.status).to.equal(200);
    expect(response.headers['content-type']).to.match(/^text\/plain/);
    expect(response.text).to.match(ST_ID);
    const st = await server.tickets.get(response.text);
    expect(st).to.include({ kind: 'ST', tgtId: tgt, service: APP });
  });

  it('reads service from the query string too', async () => {
    const server = testServer();
    const tgt = await createTgt(server);
    const response = await server.http.post(`/cas/v1/tickets/${tgt}?service=${encodeURIComponent(APP)}`);
    expect(response.status).to.equal(200);
    expect(response.text).to.match(ST_ID);
  });

  it('service missing or blank → 400 text/plain', async () => {
    const server = testServer();
    const tgt = await createTgt(server);
    for (const body of [{}, { service: '' }]) {
      const response = await server.http.post(`/cas/v1/tickets/${tgt}`).type('form').send(body);
      expect(response.status).to.equal(400);
      expect(response.headers['content-type']).to.match(/^text\/plain/);
      expect(response.text).to.include('service');
    }
  });

  it('unknown or expired TGT → 404 text/plain', async () => {
    const server = testServer();
    const unknown = await server.http.post('/cas/v1/tickets/TGT-1-nope-test').type('form').send({ service: APP });
    expect(unknown.status).to.equal(404);
    expect(unknown.headers['content-type']).to.match(/^text\/plain/);
    const tgt = await createTgt(server);
    server.clock.advanceSeconds(8 * 60 * 60);
    expect((await server.http.post(`/cas/v1/tickets/${tgt}`).type('form').send({ service: APP })).status).to.equal(404);
  });

  it('unregistered service → 403; access rules not met → 401 JSON', async () => {
    const server = testServer();
    const tgt = await createTgt(server);
    expect((await server.http.post(`/cas/v1/tickets/${tgt}`).type('form').send({ service: UNREGISTERED })).status).to.equal(403);
    const denied = await server.http.post(`/cas/v1/tickets/${tgt}`).type('form').send({ service: ADMIN_APP });
    expect(denied.status).to.equal(401);
    expect(denied.body).to.deep.equal({ authentication_exceptions: ['Service access denied due to missing privileges.'] });
  });

  describe('renew', () => {
    for (const flag of ['true', 'TRUE', 'yes', 'On', 'y', 'T', '1']) {
      it(`renew=${flag} with the TGT's credentials → an ST from a fresh login`, async () => {
        const server = testServer();
        const tgt = await createTgt(server);
        await grantSt(server, tgt); // the first ST counts as fresh anyway; the second only through renew
        const response = await server.http.post(`/cas/v1/tickets/${tgt}`).type('form').send({ service: APP, renew: flag, ...CASUSER });
        expect(response.status).to.equal(200);
        expect(await server.tickets.get(response.text)).to.include({ fromNewLogin: true });
      });
    }

    it('without a truthy renew the credentials are not read: the second ST is not fresh', async () => {
      const server = testServer();
      const tgt = await createTgt(server);
      await grantSt(server, tgt);
      for (const renew of ['false', 'no', '']) {
        const response = await server.http.post(`/cas/v1/tickets/${tgt}`).type('form').send({ service: APP, renew, username: 'casuser', password: 'wrong' });
        expect(response.status).to.equal(200);
        expect(await server.tickets.get(response.text)).to.include({ fromNewLogin: false });
      }
    });

    it('renew without credentials → 400; with bad or another principal\'s credentials → 401', async () => {
      const server = testServer({ users: { alice: { password: 'secret', attributes: {} } } });
      const tgt = await createTgt(server);
      expect((await server.http.post(`/cas/v1/tickets/${tgt}`).type('form').send({ service: APP, renew: 'true' })).status).to.equal(400);
      const bad = await server.http.post(`/cas/v1/tickets/${tgt}`).type('form').send({ service: APP, renew: 'true', username: 'casuser', password: 'x' });
      expect(bad.status).to.equal(401);
      expect(bad.headers['content-type']).to.match(/^application\/json/);
      const other = await server.http.post(`/cas/v1/tickets/${tgt}`).type('form').send({ service: APP, renew: 'true', username: 'alice', password: 'secret' });
      expect(other.status).to.equal(401);
    });
  });
});

describe('docs/protocol.md §3 GET /v1/tickets/{id} — status', () => {
  it('200 text/plain with the id for a live TGT or ST, 404 otherwise', async () => {
    const server = testServer();
    const tgt = await createTgt(server);
    const st = await grantSt(server, tgt);
    for (const id of [tgt, st]) {
      const response = await server.http.get(`/cas/v1/tickets/${id}`);
      expect(response.status).to.equal(200);
      expect(response.headers['content-type']).to.match(/^text\/plain/);
      expect(response.text).to.equal(id);
    }
    const unknown = await server.http.get('/cas/v1/tickets/TGT-9-unknown-test');
    expect(unknown.status).to.equal(404);
    expect(unknown.headers['content-type']).to.match(/^text\/plain/);
    server.clock.advanceSeconds(11);
    expect((await server.http.get(`/cas/v1/tickets/${st}`)).status).to.equal(404);
  });

  it('does not extend the TGT', async () => {
    const server = testServer();
    const tgt = await createTgt(server);
    server.clock.advanceSeconds(2 * 60 * 60 - 1);
    expect((await server.http.get(`/cas/v1/tickets/${tgt}`)).status).to.equal(200);
    server.clock.advanceSeconds(1);
    expect((await server.http.get(`/cas/v1/tickets/${tgt}`)).status).to.equal(404);
  });
});

describe('docs/protocol.md §3 DELETE /v1/tickets/{tgt} — logout', () => {
  it('200 text/plain with the id; the TGT and its STs are gone', async () => {
    const server = testServer();
    const tgt = await createTgt(server);
    const st = await grantSt(server, tgt);
    const response = await server.http.delete(`/cas/v1/tickets/${tgt}`);
    expect(response.status).to.equal(200);
    expect(response.headers['content-type']).to.match(/^text\/plain/);
    expect(response.text).to.equal(tgt);
    expect(await server.tickets.get(tgt)).to.equal(undefined);
    expect(await server.tickets.get(st)).to.equal(undefined);
  });

  it('is idempotent: unknown ids answer 200 with the id as well', async () => {
    const response = await testServer().http.delete('/cas/v1/tickets/TGT-1-never-existed');
    expect(response.status).to.equal(200);
    expect(response.text).to.equal('TGT-1-never-existed');
  });
});
