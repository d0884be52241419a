import { expect } from 'chai';
import request from 'supertest';
import type { ReadinessReport } from '@tessera/core';
import { createAdminApp, type AdminDependencies } from '../src/index.js';
import { RecordingEvents } from './fakes.js';

const READY: ReadinessReport = { ready: true, components: { storage: 'up', ldap: 'up' }, failures: {} };
const UNREADY: ReadinessReport = { ready: false, components: { storage: 'down', ldap: 'up' }, failures: { storage: 'no answer within 2000 ms' } };

function admin(overrides: Partial<AdminDependencies> = {}) {
  const events = new RecordingEvents();
  const deps: AdminDependencies = {
    readiness: { probe: () => Promise.resolve(READY) },
    metrics: { contentType: 'text/plain; version=0.0.4; charset=utf-8', render: () => Promise.resolve('tessera_up 1\n') },
    events,
    stopping: () => false,
    ...overrides,
  };
  return { http: request(createAdminApp(deps).callback()), events };
}

// docs/protocol.md §10 — the admin endpoints: liveness, readiness, metrics
describe('admin endpoints (docs/protocol.md §10)', () => {
  it('GET /health/live: 200 JSON whenever the process answers, never cached', async () => {
    const response = await admin({ readiness: { probe: () => Promise.resolve(UNREADY) } }).http.get('/health/live');
    expect(response.status).to.equal(200);
    expect(response.type).to.equal('application/json');
    expect(response.body).to.deep.equal({ status: 'live' });
    expect(response.headers['cache-control']).to.equal('no-store');
  });

  it('GET /health/ready: 200 naming every component up', async () => {
    const response = await admin().http.get('/health/ready');
    expect(response.status).to.equal(200);
    expect(response.type).to.equal('application/json');
    expect(response.body).to.deep.equal({ status: 'ready', components: { storage: 'up', ldap: 'up' } });
  });

  it('GET /health/ready: 503 naming the failing component and why', async () => {
    const response = await admin({ readiness: { probe: () => Promise.resolve(UNREADY) } }).http.get('/health/ready');
    expect(response.status).to.equal(503);
    expect(response.body).to.deep.equal({ status: 'unready', components: { storage: 'down', ldap: 'up' }, failures: { storage: 'no answer within 2000 ms' } });
  });

  it('GET /health/ready: 503 "stopping" once the server stops, without running the checks', async () => {
    let probes = 0;
    const readiness = { probe: () => ((probes += 1), Promise.resolve(READY)) };
    const response = await admin({ readiness, stopping: () => true }).http.get('/health/ready');
    expect(response.status).to.equal(503);
    expect(response.body).to.deep.equal({ status: 'stopping' });
    expect(probes).to.equal(0);
  });

  it('GET /metrics: the registry as rendered, with its content type; 404 when metrics are off', async () => {
    const response = await admin().http.get('/metrics');
    expect(response.status).to.equal(200);
    expect(response.headers['content-type']).to.equal('text/plain; version=0.0.4; charset=utf-8');
    expect(response.text).to.equal('tessera_up 1\n');
    expect((await admin({ metrics: undefined }).http.get('/metrics')).status).to.equal(404);
  });

  it('a metrics render that fails is a plain 500, reported as server.error, never echoed', async () => {
    const { http, events } = admin({ metrics: { contentType: 'text/plain', render: () => Promise.reject(new Error('collector broke at db1:27017')) } });
    const response = await http.get('/metrics');
    expect(response.status).to.equal(500);
    expect(response.text).to.equal('The server could not complete the request');
    expect(events.ofType('server.error').map((event) => [event.context, event.error.message])).to.deep.equal([['GET /metrics', 'collector broke at db1:27017']]);
  });

  it('HEAD answers like GET without a body; other methods get 405 with Allow; other paths 404 text', async () => {
    const { http } = admin();
    const head = await http.head('/health/ready');
    expect(head.status).to.equal(200);
    expect(head.text).to.equal(undefined);
    const post = await http.post('/health/live');
    expect(post.status).to.equal(405);
    expect(post.headers.allow).to.equal('GET, HEAD');
    for (const path of ['/health', '/health/live/', '/cas/health/live', '/metrics/x']) {
      const response = await http.get(path);
      expect([response.status, response.type, response.text], path).to.deep.equal([404, 'text/plain', 'Not found']);
    }
  });
});
