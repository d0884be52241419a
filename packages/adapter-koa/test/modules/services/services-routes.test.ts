import { expect } from 'chai';
import { cryptoRandomSource } from '@tessera/core';
import { RegisterService } from '@tessera/core/modules/services';
import { servicesModule } from '../../../src/modules/services/index.js';
import { BUILT_IN_CODEC } from '../../built-in-codec.js';
import { createTgt, testServer } from '../../harness.js';

const DEFINITION = { '@class': 'org.apereo.cas.services.CasRegisteredService', name: 'New', serviceId: '^https://new\\.example\\.org/.*' };
const BASIC_CASUSER = `Basic ${Buffer.from('casuser:Mellon').toString('base64')}`;

function servicesServer(variants = { current: true, earlier: true }, restRevision: 'current' | 'earlier' = 'current') {
  return testServer({
    restRevision,
    users: { bob: { password: 'pw', attributes: { memberOf: ['students'] } } },
    modules: ({ core, tickets, registry, events }) => [
      servicesModule({
        ...variants,
        acceptedTypes: ['org.apereo.cas.services.CasRegisteredService'],
        codec: BUILT_IN_CODEC,
        registerService: new RegisterService(
          { authenticator: core.authenticator, tickets, registry, events, random: cryptoRandomSource },
          { requiredAttribute: { name: 'memberOf', valuePattern: 'staff' } },
        ),
      }),
    ],
  });
}

// docs/protocol.md §3 — the services module's routes over a core with fakes
describe('services module routes (docs/protocol.md §3)', () => {
  it('POST /v1/services: 200 application/json with the stored definition and its id', async () => {
    const server = servicesServer();
    const response = await server.http.post('/cas/v1/services').set('Authorization', BASIC_CASUSER).send(DEFINITION);
    expect(response.status, response.text).to.equal(200);
    expect(response.type).to.equal('application/json');
    expect(response.body).to.include({ '@class': DEFINITION['@class'], name: 'New' });
    const { id } = response.body as { id: unknown };
    expect(id).to.be.a('number');
    expect(await server.registry.findById(id as number)).to.include({ name: 'New' });
  });

  for (const restRevision of ['current', 'earlier'] as const) {
    it(`401 with a Basic challenge for missing, malformed or wrong credentials (beside rest routes of revision ${restRevision})`, async () => {
      const server = servicesServer(undefined, restRevision);
      for (const authorization of [undefined, 'Basic !!!', 'Bearer x', `Basic ${Buffer.from('casuser:wrong').toString('base64')}`]) {
        const call = server.http.post('/cas/v1/services');
        const response = await (authorization ? call.set('Authorization', authorization) : call).send(DEFINITION);
        expect(response.status, authorization).to.equal(401);
        expect(response.headers['www-authenticate']).to.equal('Basic realm="tessera"');
        expect(response.text).to.not.include('wrong');
      }
    });
  }

  it('403 without the attribute, 415 without JSON, 400 naming the field', async () => {
    const server = servicesServer();
    const bob = `Basic ${Buffer.from('bob:pw').toString('base64')}`;
    expect((await server.http.post('/cas/v1/services').set('Authorization', bob).send(DEFINITION)).status).to.equal(403);
    const form = await server.http.post('/cas/v1/services').set('Authorization', BASIC_CASUSER).type('form').send({ name: 'x' });
    expect(form.status).to.equal(415);
    const empty = await server.http.post('/cas/v1/services').set('Authorization', BASIC_CASUSER).set('Content-Type', 'application/json; charset=utf-8');
    expect([empty.status, empty.text]).to.deep.equal([400, 'serviceId: is required (a regular expression)']);
    const bad = await server.http.post('/cas/v1/services').set('Authorization', BASIC_CASUSER).send({ ...DEFINITION, serviceId: '(' });
    expect(bad.status).to.equal(400);
    expect(bad.text).to.match(/^serviceId: /);
  });

  it('POST /v1/services/add/{tgt}: 200 text/plain id; 404 unknown TGT; 400 missing field', async () => {
    const server = servicesServer();
    const tgt = await createTgt(server);
    const form = { serviceId: '^https://old\\.example\\.org/.*', name: 'Old', description: 'legacy' };
    const added = await server.http.post(`/cas/v1/services/add/${tgt}`).type('form').send(form);
    expect(added.status, added.text).to.equal(200);
    expect(added.type).to.equal('text/plain');
    expect(await server.registry.findById(Number(added.text))).to.include({ name: 'Old' });
    expect((await server.http.post('/cas/v1/services/add/TGT-1-x-test').type('form').send(form)).status).to.equal(404);
    const missing = await server.http.post(`/cas/v1/services/add/${tgt}`).type('form').send({ ...form, name: '' });
    expect([missing.status, missing.text]).to.deep.equal([400, 'name: is required']);
  });

  it('a caller who may not register is refused before the definition is read: 401, 403 or 404, never 400', async () => {
    const server = servicesServer();
    const invalid = { ...DEFINITION, serviceId: '(' };
    const bob = `Basic ${Buffer.from('bob:pw').toString('base64')}`;
    expect((await server.http.post('/cas/v1/services').send(invalid)).status).to.equal(401);
    expect((await server.http.post('/cas/v1/services').set('Authorization', bob).send(invalid)).status).to.equal(403);
    const form = { serviceId: '(', name: '', description: 'legacy' };
    expect((await server.http.post('/cas/v1/services/add/TGT-1-x-test').type('form').send(form)).status).to.equal(404);
    const bobsTgt = await createTgt(server, { username: 'bob', password: 'pw' });
    expect((await server.http.post(`/cas/v1/services/add/${bobsTgt}`).type('form').send(form)).status).to.equal(403);
  });

  it('a variant that is off adds no route', async () => {
    const server = servicesServer({ current: false, earlier: false });
    expect((await server.http.post('/cas/v1/services').set('Authorization', BASIC_CASUSER).send(DEFINITION)).status).to.equal(404);
    expect((await server.http.post(`/cas/v1/services/add/${await createTgt(server)}`).type('form').send({})).status).to.equal(404);
  });
});
