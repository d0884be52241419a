import { StoreUnavailableError } from '@tessera/core';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { expect } from 'chai';
import request from 'supertest';
import { createApp } from '../src/index.js';
import { APP, CASUSER, DEFAULT_OPTIONS, testServer } from './harness.js';
import { ExplodingTicketStore } from './fakes.js';

describe('errors — one status table, per-family renderers, never a crash', () => {
  it('an exploding store on a REST route → 500 generic text/plain, reported once as server.error', async () => {
    const server = testServer({ tickets: new ExplodingTicketStore() });
    const response = await server.http.post('/cas/v1/tickets').type('form').send(CASUSER);
    expect(response.status).to.equal(500);
    expect(response.headers['content-type']).to.match(/^text\/plain/);
    expect(response.text).not.to.include('exploded');
    const reported = server.events.ofType('server.error');
    expect(reported).to.have.length(1);
    expect(reported[0]!.error.message).to.equal('backend exploded');
    expect(reported[0]!.context).to.equal('POST /cas/v1/tickets');
    // With the request's origin, so the log line carries the request id of the audit lines.
    expect(server.events.origins.get(reported[0]!)).to.include({ endpoint: 'POST /cas/v1/tickets' }).and.to.have.property('requestId');
  });

  it('reports the route pattern, never the path with its ticket id', async () => {
    const server = testServer({ tickets: new ExplodingTicketStore() });
    expect((await server.http.get('/cas/v1/tickets/TGT-7-SECRETPART-test')).status).to.equal(500);
    const [reported] = server.events.ofType('server.error');
    expect(reported!.context).to.equal('GET /cas/v1/tickets/:id');
    expect(JSON.stringify(server.events.events)).not.to.include('SECRETPART');
  });

  it('an exploding store on a validation route → INTERNAL_ERROR document, 500, reported once, not echoed', async () => {
    const server = testServer({ tickets: new ExplodingTicketStore() });
    const response = await server.http.get('/cas/p3/serviceValidate').query({ service: APP, ticket: 'ST-1-x' });
    expect(response.status).to.equal(500);
    expect(response.headers['content-type']).to.equal('application/xml; charset=utf-8');
    expect(response.text).to.include('<cas:authenticationFailure code="INTERNAL_ERROR">');
    expect(response.text).not.to.include('exploded');
    const json = await server.http.get('/cas/serviceValidate').query({ service: APP, ticket: 'ST-1-x', format: 'JSON' });
    expect(json.body).to.deep.equal({
      serviceResponse: { authenticationFailure: { code: 'INTERNAL_ERROR', description: 'The server could not validate the ticket' } },
    });
    const cas1 = await server.http.get('/cas/validate').query({ service: APP, ticket: 'ST-1-x' });
    expect(cas1.text).to.equal('no\n\n');
    expect(server.events.ofType('server.error')).to.have.length(3);
  });

  it('with validationFailureStatus 200, INTERNAL_ERROR is answered 200 too (clients that need Apereo\'s always-200)', async () => {
    const server = testServer({ tickets: new ExplodingTicketStore(), options: { validationFailureStatus: 200 } });
    const response = await server.http.get('/cas/p3/serviceValidate').query({ service: APP, ticket: 'ST-1-x' });
    expect(response.status).to.equal(200);
    expect(response.text).to.include('code="INTERNAL_ERROR"');
  });

  it('a store outage → 503 without its details; a thrown non-Error is still reported as an Error', async () => {
    const outage = testServer({ tickets: new ExplodingTicketStore(new StoreUnavailableError('mongo at 10.1.2.3 is down')) });
    const response = await outage.http.post('/cas/v1/tickets').type('form').send(CASUSER);
    expect(response.status).to.equal(503);
    expect(response.text).not.to.include('10.1.2.3');
    expect(response.text).to.equal('A service the server depends on is unavailable; please try again later.');
    expect(outage.events.ofType('server.error')).to.have.length(1);

    const odd = testServer({ tickets: new ExplodingTicketStore('a string') });
    expect((await odd.http.delete('/cas/v1/tickets/TGT-1-x')).status).to.equal(500);
    expect(odd.events.ofType('server.error')[0]!.error).to.be.instanceOf(Error);
  });

  it('keeps serving after failures', async () => {
    const server = testServer({ tickets: new ExplodingTicketStore() });
    const responses = await Promise.all(Array.from({ length: 20 }, () => server.http.post('/cas/v1/tickets').type('form').send(CASUSER)));
    expect(responses.map((r) => r.status)).to.deep.equal(Array(20).fill(500));
    expect((await server.http.get('/cas/v1/tickets')).status).to.equal(405);
  });

  it('errors that escape every handler (Koa\'s error event) are reported, a client hanging up is not', () => {
    const server = testServer();
    const ctx = server.app.createContext(new IncomingMessage(new Socket()), new ServerResponse(new IncomingMessage(new Socket())));
    server.app.emit('error', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), ctx);
    expect(server.events.ofType('server.error')).to.deep.equal([]);
    server.app.emit('error', new Error('stream broke'), ctx);
    expect(server.events.ofType('server.error').map((e) => e.error.message)).to.deep.equal(['stream broke']);
  });

  it('client errors are not reported as server errors', async () => {
    const server = testServer();
    await server.http.post('/cas/v1/tickets').type('form').send({ username: 'casuser', password: 'bad' });
    await server.http.post('/cas/v1/tickets').set('Content-Type', 'text/plain').send('x');
    await server.http.get('/cas/nowhere');
    expect(server.events.ofType('server.error')).to.deep.equal([]);
  });

  describe('routes', () => {
    it('an unknown path → 404 text/plain, also outside the base path', async () => {
      const server = testServer();
      for (const path of ['/cas/nowhere', '/v1/tickets', '/cas/v2/tickets', '/']) {
        const response = await server.http.get(path);
        expect(response.status, path).to.equal(404);
        expect(response.headers['content-type']).to.match(/^text\/plain/);
      }
    });

    it('a method the router does not implement → 405 with Allow where the path exists, else 404', async () => {
      const server = testServer();
      const known = await server.http.propfind('/cas/v1/tickets');
      expect(known.status).to.equal(405);
      expect(known.headers.allow).to.equal('POST');
      expect((await server.http.propfind('/cas/nowhere')).status).to.equal(404);
      const options = await server.http.options('/cas/v1/tickets/TGT-1-x');
      expect(options.status).to.equal(200);
      expect(options.headers.allow).to.equal('POST, HEAD, GET, DELETE');
    });

    it('a body in an encoding the server cannot inflate → 415', async () => {
      const response = await testServer().http.post('/cas/v1/tickets').type('form').set('Content-Encoding', 'compress').send('username=casuser');
      expect(response.status).to.equal(415);
    });

    it('an empty base path serves from the root', async () => {
      const server = testServer({ options: { basePath: '', allowedHosts: ['sso.example.org', '127.0.0.1'] } });
      const created = await server.http.post('/v1/tickets').set('Host', 'sso.example.org').set('Accept', 'text/plain').type('form').send(CASUSER);
      expect(created.status).to.equal(201);
      expect(created.headers.location).to.equal(`http://sso.example.org/v1/tickets/${created.text}`);
      const st = await server.http.post(`/v1/tickets/${created.text}`).type('form').send({ service: APP });
      expect((await server.http.get('/p3/serviceValidate').query({ service: APP, ticket: st.text })).status).to.equal(200);
      expect((await server.http.get('/cas/v1/tickets/x')).status).to.equal(404);
    });

    it('only enabled modules add routes; validation is always on', async () => {
      const server = testServer();
      const bare = createApp({ core: server.core, options: DEFAULT_OPTIONS, modules: [], extractors: [], events: server.events });
      const http = request(bare.callback());
      expect((await http.post('/cas/v1/tickets').type('form').send(CASUSER)).status).to.equal(404);
      const validation = await http.get('/cas/p3/serviceValidate').query({ service: APP, ticket: 'ST-1-x' });
      expect(validation.text, validation.text).to.include('INVALID_TICKET');
    });
  });
});
