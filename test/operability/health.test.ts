import { expect } from 'chai';
import type { StartOptions } from '@tessera/cli-server';
import { describeWithSlapd } from '@tessera/testkit';
import { FakeDatabase } from '@tessera/testkit/mongo';
import { startWithLdap } from '../ldap/ldap-support.js';
import { startTessera, type Tessera } from '../support/tessera.js';

async function get(url: string): Promise<{ status: number; type: string | null; body: unknown }> {
  const response = await fetch(url);
  const type = response.headers.get('content-type');
  return { status: response.status, type, body: type?.startsWith('application/json') ? await response.json() : await response.text() };
}

// docs/protocol.md §10.1 — liveness and readiness probes over real HTTP
describe('health endpoints on the main listener (docs/protocol.md §10.1)', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startTessera();
  });
  after(() => tessera.close());

  it('GET /health/live: 200 outside the CAS base path, on the main origin', async () => {
    expect(tessera.server.adminUrl).to.equal(new URL(tessera.url).origin);
    expect(await get(`${tessera.server.adminUrl}/health/live`)).to.deep.equal({ status: 200, type: 'application/json; charset=utf-8', body: { status: 'live' } });
    expect((await get(`${tessera.url}/health/live`)).status).to.equal(404);
  });

  it('GET /health/ready: 200 with the storage component up', async () => {
    expect(await get(`${tessera.server.adminUrl}/health/ready`)).to.deep.equal({
      status: 200,
      type: 'application/json; charset=utf-8',
      body: { status: 'ready', components: { storage: 'up' } },
    });
  });
});

describe('readiness when the storage fails (docs/protocol.md §10.1)', () => {
  let tessera: Tessera;
  let database: FakeDatabase;
  beforeEach(async () => {
    database = new FakeDatabase();
    tessera = await startTessera(
      { storage: { type: 'mongo', mongo: { uri: 'mongodb://fake.invalid' } }, health: { timeoutMs: 200 } },
      { mongoDatabase: database as unknown as NonNullable<StartOptions['mongoDatabase']> },
    );
  });
  afterEach(() => tessera.close());

  const ready = () => get(`${tessera.server.adminUrl}/health/ready`);

  it('answers 503 naming storage, with the cause in the log only, and 200 again once the database is back', async () => {
    expect((await ready()).status).to.equal(200);
    database.failEveryCall(new Error('connect ECONNREFUSED db1.internal:27017'));
    const down = await ready();
    expect(down).to.deep.equal({
      status: 503,
      type: 'application/json; charset=utf-8',
      body: { status: 'unready', components: { storage: 'down' }, failures: { storage: 'unavailable (details in the server log)' } },
    });
    const logged = tessera.logs.filter((line) => line.includes('"event":"readiness.failed"'));
    expect(logged).to.have.length(1);
    expect(logged[0]).to.include('"component":"storage"').and.include('db1.internal:27017');
    database.failEveryCall(undefined);
    expect((await ready()).status).to.equal(200);
  });

  it('a database that never answers makes a prompt 503, not a hung probe', async () => {
    Object.assign(database, { command: () => new Promise(() => undefined) });
    const started = performance.now();
    const down = await ready();
    expect(performance.now() - started).to.be.below(2000);
    expect(down.status).to.equal(503);
    expect(down.body).to.deep.include({ failures: { storage: 'no answer within 200 ms' } });
  });
});

describeWithSlapd('readiness with the LDAP handler (docs/protocol.md §10.1)', (slapd) => {
  let tessera: Tessera | undefined;
  before(async () => {
    tessera = await startWithLdap(slapd(), ['config-users', 'ldap']);
  });
  // Skipped without slapd: nothing was started.
  after(() => tessera?.close());

  it('names the directory next to the storage; 503 naming ldap while it is stopped; 200 once it is back', async () => {
    const { adminUrl } = tessera!.server;
    const ready = () => get(`${adminUrl}/health/ready`);
    expect(await ready()).to.deep.include({ status: 200, body: { status: 'ready', components: { storage: 'up', ldap: 'up' } } });
    await slapd().stop();
    try {
      const down = await ready();
      expect(down.status).to.equal(503);
      expect(down.body).to.deep.equal({ status: 'unready', components: { storage: 'up', ldap: 'down' }, failures: { ldap: 'unavailable (details in the server log)' } });
      expect(JSON.stringify(down.body)).not.to.include(new URL(slapd().url).port);
    } finally {
      await slapd().start();
    }
    expect((await ready()).status).to.equal(200);
  });
});
