import { expect } from 'chai';
import { APP, form, login, serviceTicket, startTessera, type Tessera } from '../support/tessera.js';
import { scrape, valueOf, type Scrape } from '../support/prometheus.js';

const THROTTLE = { failure: { threshold: 2, rangeSeconds: 60, lockSeconds: 30, maxLockSeconds: 60 } };

// docs/protocol.md §10.2 — Prometheus metrics over real HTTP: what moves, how requests are timed, what never appears
describe('metrics at /metrics (docs/protocol.md §10.2)', () => {
  let tessera: Tessera;
  const secrets: string[] = [];
  before(async () => {
    tessera = await startTessera({ modules: ['rest', 'throttle'], throttle: THROTTLE });
  });
  after(() => tessera.close());

  const metrics = () => scrape(tessera.server.adminUrl);
  const validate = (ticket: string) => fetch(`${tessera.url}/p3/serviceValidate?${new URLSearchParams({ service: APP, ticket }).toString()}`);
  const moved = (before: Scrape, after: Scrape, name: string, labels: Record<string, string> = {}) => valueOf(after, name, labels) - valueOf(before, name, labels);

  it('counts a login, an ST grant, a validation and a failed validation by its CAS code; the live TGT gauge follows login and logout', async () => {
    const before = await metrics();
    const tgt = await login(tessera.url);
    const st = await serviceTicket(tessera.url, tgt);
    secrets.push(tgt, st);
    expect((await validate(st)).status).to.equal(200);
    expect((await validate(st)).status).to.equal(400);
    const after = await metrics();

    expect(moved(before, after, 'tessera_tickets_issued_total', { kind: 'TGT' })).to.equal(1);
    expect(moved(before, after, 'tessera_tickets_issued_total', { kind: 'ST' })).to.equal(1);
    expect(moved(before, after, 'tessera_authentications_total', { handler: 'config-users', outcome: 'success' })).to.equal(1);
    expect(moved(before, after, 'tessera_ticket_validations_total', { outcome: 'success' })).to.equal(1);
    expect(moved(before, after, 'tessera_ticket_validations_total', { outcome: 'INVALID_TICKET' })).to.equal(1);
    expect(moved(before, after, 'tessera_tgts_live')).to.equal(1);

    expect((await fetch(`${tessera.url}/v1/tickets/${tgt}`, { method: 'DELETE' })).status).to.equal(200);
    expect(valueOf(await metrics(), 'tessera_tgts_live')).to.equal(valueOf(before, 'tessera_tgts_live'));
  });

  it('counts failed logins under the handler asked, and the throttle lock they cause', async () => {
    const before = await metrics();
    const attempt = () => fetch(`${tessera.url}/v1/tickets`, form({ username: 'alice', password: 'Wr0ng-Guess' }));
    expect([(await attempt()).status, (await attempt()).status, (await attempt()).status]).to.deep.equal([401, 401, 423]);
    const after = await metrics();
    expect(moved(before, after, 'tessera_authentications_total', { handler: 'config-users', outcome: 'failure' })).to.equal(2);
    expect(moved(before, after, 'tessera_throttle_locks_total')).to.equal(1);
  });

  it('times requests per route pattern, method and status; a path no route matches is one fixed label', async () => {
    await fetch(`${tessera.url}/no/such/ST-1-unmatchedpath-e2e`);
    const scraped = await metrics();
    expect(scraped.families.get('tessera_http_request_duration_seconds')?.type).to.equal('histogram');
    for (const [route, method, status] of [
      ['/cas/v1/tickets', 'POST', '201'],
      ['/cas/v1/tickets/:tgt', 'POST', '200'],
      ['/cas/v1/tickets/:id', 'DELETE', '200'],
      ['/cas/p3/serviceValidate', 'GET', '200'],
      ['/cas/p3/serviceValidate', 'GET', '400'],
      ['/cas/v1/tickets', 'POST', '423'],
      ['unmatched', 'GET', '404'],
    ] as const) {
      const count = valueOf(scraped, 'tessera_http_request_duration_seconds_count', { route, method, status });
      expect(count, `${method} ${route} ${status}`).to.be.at.least(1);
      expect(valueOf(scraped, 'tessera_http_request_duration_seconds_bucket', { route, method, status, le: '+Inf' })).to.equal(count);
    }
    // Scrapes (200, which no CAS route answers unmatched) are not requests of the CAS app: never timed.
    expect(valueOf(scraped, 'tessera_http_request_duration_seconds_count', { route: 'unmatched', method: 'GET', status: '200' })).to.equal(0);
  });

  it('never carries a username, ticket id or service URL', async () => {
    const { text } = await metrics();
    const randomPart = (id: string) => id.replace(/^(TGT|ST)-\d+-/, '').replace(/-e2e$/, '');
    for (const secret of ['casuser', 'alice', 'Wr0ng-Guess', 'app.example.org', 'unmatchedpath', ...secrets, ...secrets.map(randomPart)]) {
      expect(text, `metrics contain ${secret.slice(0, 12)}…`).not.to.include(secret);
    }
  });

  it('carries the process metrics, in a registry of each server: a second server in the process starts from zero', async () => {
    const scraped = await metrics();
    expect(valueOf(scraped, 'process_cpu_user_seconds_total')).to.be.above(0);
    expect(valueOf(scraped, 'nodejs_heap_size_used_bytes')).to.be.above(0);
    const other = await startTessera();
    try {
      const fresh = await scrape(other.server.adminUrl);
      expect(valueOf(fresh, 'tessera_tickets_issued_total', { kind: 'TGT' })).to.equal(0);
      expect(valueOf(fresh, 'tessera_tgts_live')).to.equal(0);
      expect(valueOf(scraped, 'tessera_tickets_issued_total', { kind: 'TGT' })).to.equal(1);
    } finally {
      await other.close();
    }
  });
});
