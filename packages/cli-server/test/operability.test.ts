import { expect } from 'chai';
import request from 'supertest';
import type { RequestListener } from 'node:http';
import { AdminEndpoints, buildContainer, createLogger, loadConfig, parseConfig, KEYS, type Config } from '@tessera/cli-server';
import { configProblems as problems } from './config-problems.js';

function containerFor(config: Config) {
  return buildContainer({ config, logger: createLogger('silent') });
}

const notCas: RequestListener = (_request, response) => response.writeHead(418).end('CAS app');

// docs/protocol.md §10 — admin.*, health.*, metrics.* and how the container composes them
describe('operability settings and composition (docs/protocol.md §10)', () => {
  it('defaults: health and metrics on the main listener, metrics on, a 2 s readiness deadline', () => {
    const config = parseConfig({});
    expect(config.admin).to.deep.equal({ host: '127.0.0.1' });
    expect(config.health).to.deep.equal({ timeoutMs: 2000 });
    expect(config.metrics).to.deep.equal({ enabled: true });
    expect(loadConfig({ env: { TESSERA_ADMIN__PORT: '9090', TESSERA_METRICS__ENABLED: 'false' } })).to.deep.include({ admin: { host: '127.0.0.1', port: 9090 }, metrics: { enabled: false } });
  });

  it('refuses bad values naming the setting', () => {
    expect(problems({ admin: { port: 70000 } })).to.deep.equal(['admin.port: expected a number from 0 to 65535']);
    expect(problems({ admin: { host: '' } })).to.deep.equal(['admin.host: expected a host name or IP address']);
    expect(problems({ health: { timeoutMs: 0 } })).to.deep.equal(['health.timeoutMs: expected a number of milliseconds from 1 to 60000']);
    expect(problems({ metrics: { enabled: 'yes' } })).to.deep.equal(['metrics.enabled: expected true or false']);
    expect(problems({ metrics: { enable: true } })).to.deep.equal(['metrics.enable: unknown setting']);
  });

  it('with metrics on: one registry, a second event sink after the log, and the web app timing requests into it', async () => {
    const binder = containerFor(parseConfig({}));
    const [metrics] = binder.getAll(KEYS.Metrics);
    expect(binder.getAll(KEYS.EventSinks).map((sink) => sink.constructor.name)).to.deep.equal(['LoggingEventSink', 'MetricsEventSink']);
    await request(binder.get(KEYS.HttpApp).callback()).get('/cas/v1/tickets/TGT-1-x');
    expect(await metrics!.render()).to.include('tessera_http_request_duration_seconds_count{method="GET",route="/cas/v1/tickets/:id",status="404"} 1');
  });

  it('with metrics off: no registry and the log as the only event sink', () => {
    const binder = containerFor(parseConfig({ metrics: { enabled: false } }));
    expect(binder.getAll(KEYS.Metrics)).to.deep.equal([]);
    expect(binder.getAll(KEYS.EventSinks).map((sink) => sink.constructor.name)).to.deep.equal(['LoggingEventSink']);
    expect(binder.get(KEYS.HttpApp).callback()).to.be.a('function');
  });

  it('readiness checks the storage, and the directory only when the ldap handler is listed', () => {
    expect(containerFor(parseConfig({})).getAll(KEYS.ReadinessCheck).map((check) => check.name)).to.deep.equal(['storage']);
    const ldap = { url: 'ldap://127.0.0.1:389', searchBase: 'ou=people,dc=example,dc=org' };
    const withLdap = containerFor(parseConfig({ authentication: { handlers: ['config-users', 'ldap'] }, ldap }));
    expect(withLdap.getAll(KEYS.ReadinessCheck).map((check) => check.name)).to.deep.equal(['storage', 'ldap']);
  });

  it('without admin.port the admin paths are answered in front of the CAS app, everything else passes through', async () => {
    const config = parseConfig({});
    const http = request(new AdminEndpoints(containerFor(config), config).mainListener(notCas));
    expect((await http.get('/health/live')).status).to.equal(200);
    expect((await http.get('/health/ready?verbose=1')).body).to.deep.equal({ status: 'ready', components: { storage: 'up' } });
    expect((await http.get('/metrics')).text).to.include('tessera_http_request_duration_seconds');
    for (const path of ['/cas/health/live', '/health', '/healthz', '/metricsx']) expect((await http.get(path)).status, path).to.equal(418);
  });

  it('with admin.port the main listener is the CAS app alone; stopping turns readiness to 503', async () => {
    const config = parseConfig({ admin: { port: 0 } });
    const admin = new AdminEndpoints(containerFor(config), config);
    expect((await request(admin.mainListener(notCas)).get('/health/live')).status).to.equal(418);
    const shared = parseConfig({});
    const sharing = new AdminEndpoints(containerFor(shared), shared);
    sharing.markStopping();
    const stopping = await request(sharing.mainListener(notCas)).get('/health/ready');
    expect([stopping.status, stopping.body]).to.deep.equal([503, { status: 'stopping' }]);
  });
});
