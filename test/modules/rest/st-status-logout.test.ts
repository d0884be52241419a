import { expect } from 'chai';
import { APP, form, login, serviceTicket, startTessera, type Tessera } from '../../support/tessera.js';

// docs/protocol.md §3 — POST/GET/DELETE /v1/tickets/{id}
describe('service tickets, status and logout (docs/protocol.md §3)', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startTessera();
  });
  after(() => tessera.close());

  describe('POST /v1/tickets/{tgt}', () => {
    it('200 text/plain with the ST id', async () => {
      const tgt = await login(tessera.url);
      const response = await fetch(`${tessera.url}/v1/tickets/${tgt}`, form({ service: APP }));
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.match(/^text\/plain/);
      const st = await response.text();
      expect(st).to.match(/^ST-\d+-[A-Za-z0-9-]{26}-e2e$/);
      expect(st.length).to.be.at.most(64);
    });

    it('missing service 400, unknown TGT 404, unregistered service 403, an ST id is no TGT 404', async () => {
      const tgt = await login(tessera.url);
      expect((await fetch(`${tessera.url}/v1/tickets/${tgt}`, form({}))).status).to.equal(400);
      expect((await fetch(`${tessera.url}/v1/tickets/TGT-1-nothing-here`, form({ service: APP }))).status).to.equal(404);
      expect((await fetch(`${tessera.url}/v1/tickets/${tgt}`, form({ service: 'https://unknown.example.net/' }))).status).to.equal(403);
      const st = await serviceTicket(tessera.url, tgt);
      expect((await fetch(`${tessera.url}/v1/tickets/${st}`, form({ service: APP }))).status).to.equal(404);
    });

    it('renew=true needs credentials (400) of the same user (401)', async () => {
      const tgt = await login(tessera.url);
      const grant = (fields: Record<string, string>) => fetch(`${tessera.url}/v1/tickets/${tgt}`, form({ service: APP, ...fields }));
      expect((await grant({ renew: 'true' })).status).to.equal(400);
      expect((await grant({ renew: 'TRUE', username: 'alice', password: 'secret' })).status).to.equal(401);
      expect((await grant({ renew: 'yes', username: 'casuser', password: 'bad' })).status).to.equal(401);
      expect((await grant({ renew: '1', username: 'casuser', password: 'Mellon' })).status).to.equal(200);
    });

    it('a service without SSO needs renew with credentials', async () => {
      const tgt = await login(tessera.url);
      const service = 'https://nosso.example.org/app';
      expect((await fetch(`${tessera.url}/v1/tickets/${tgt}`, form({ service }))).status).to.equal(401);
      const renewed = await fetch(`${tessera.url}/v1/tickets/${tgt}`, form({ service, renew: 'true', username: 'casuser', password: 'Mellon' }));
      expect(renewed.status).to.equal(200);
    });

    it('access rules of the service apply to the TGT principal (401)', async () => {
      const tgt = await login(tessera.url, 'alice', 'secret');
      expect((await fetch(`${tessera.url}/v1/tickets/${tgt}`, form({ service: 'https://staff.example.org/' }))).status).to.equal(401);
    });
  });

  describe('GET /v1/tickets/{id}', () => {
    it('200 with the id for a live TGT or ST; 404 for anything else', async () => {
      const tgt = await login(tessera.url);
      const st = await serviceTicket(tessera.url, tgt);
      for (const id of [tgt, st]) {
        const response = await fetch(`${tessera.url}/v1/tickets/${id}`);
        expect(response.status).to.equal(200);
        expect(response.headers.get('content-type')).to.match(/^text\/plain/);
        expect(await response.text()).to.equal(id);
      }
      for (const id of ['TGT-1-unknown', 'nonsense', '%E2%98%83', 'a'.repeat(2000)]) {
        expect((await fetch(`${tessera.url}/v1/tickets/${id}`)).status, id.slice(0, 20)).to.equal(404);
      }
    });
  });

  describe('DELETE /v1/tickets/{tgt}', () => {
    it('200 text/plain with the id, also for unknown ids; the TGT and its STs are gone', async () => {
      const tgt = await login(tessera.url);
      const st = await serviceTicket(tessera.url, tgt);
      const response = await fetch(`${tessera.url}/v1/tickets/${tgt}`, { method: 'DELETE' });
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.match(/^text\/plain/);
      expect(await response.text()).to.equal(tgt);
      expect((await fetch(`${tessera.url}/v1/tickets/${tgt}`)).status).to.equal(404);
      expect((await fetch(`${tessera.url}/v1/tickets/${st}`)).status).to.equal(404);
      const validation = await fetch(`${tessera.url}/p3/serviceValidate?service=${encodeURIComponent(APP)}&ticket=${st}`);
      expect(await validation.text()).to.include('code="INVALID_TICKET"');
      const again = await fetch(`${tessera.url}/v1/tickets/${tgt}`, { method: 'DELETE' });
      expect(again.status).to.equal(200);
      expect(await again.text()).to.equal(tgt);
    });
  });

  describe('POST /v1/users', () => {
    it('200 application/json with the authentication, no ticket created', async () => {
      const response = await fetch(`${tessera.url}/v1/users`, form({ username: 'casuser', password: 'Mellon', service: APP }));
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.match(/^application\/json/);
      const body = (await response.json()) as {
        authentication: { principal: { id: string; attributes: Record<string, string[]> }; authenticationDate: string; credentials: unknown[]; successes: Record<string, unknown> };
        service: string | null;
      };
      expect(body.service).to.equal(APP);
      expect(body.authentication.principal).to.deep.equal({ id: 'casuser', attributes: { mail: ['casuser@example.org'], memberOf: ['staff', 'faculty'] } });
      expect(new Date(body.authentication.authenticationDate).getTime()).to.be.closeTo(Date.now(), 60_000);
      expect(body.authentication.credentials).to.deep.equal([{ id: 'casuser', type: 'usernamePassword' }]);
      expect(Object.keys(body.authentication.successes)).to.have.length(1);
      expect(JSON.stringify(body)).to.not.include('Mellon');
    });

    it('fails as /v1/tickets does: 401 JSON, 400, 415, 403', async () => {
      expect((await fetch(`${tessera.url}/v1/users`, form({ username: 'casuser', password: 'x' }))).status).to.equal(401);
      expect((await fetch(`${tessera.url}/v1/users`, form({}))).status).to.equal(400);
      expect((await fetch(`${tessera.url}/v1/users`, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: 'a,b' })).status).to.equal(415);
      expect((await fetch(`${tessera.url}/v1/users`, form({ username: 'casuser', password: 'Mellon', service: 'https://nope.example.net/' }))).status).to.equal(403);
    });
  });
});
