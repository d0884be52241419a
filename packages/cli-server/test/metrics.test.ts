import { expect } from 'chai';
import { FanOutEventSink, MetricsEventSink, moduleEvents, TesseraMetrics } from '@tessera/cli-server';
import type { DomainEvent, EventSink, LiveTgtCount, ModuleEvent } from '@tessera/core';

const noTgts: LiveTgtCount = { liveTgts: () => Promise.resolve(0) };

/** The exposition's sample lines for one metric family, e.g. `tessera_tickets_issued_total{kind="TGT"} 1`. */
async function linesOf(metrics: TesseraMetrics, family: string): Promise<string[]> {
  return (await metrics.render()).split('\n').filter((line) => line.startsWith(`${family}{`) || line.startsWith(`${family} `));
}

const EVENTS: (DomainEvent | ModuleEvent)[] = [
  { type: 'authentication.succeeded', principal: 'casuser', handlers: ['config-users', 'totp'], credentialTypes: ['usernamePassword', 'otp'] },
  { type: 'authentication.failed', credentialIds: ['alice'], credentialTypes: ['usernamePassword'], handlers: ['config-users', 'ldap'], reasons: ['Invalid credentials.'] },
  { type: 'authentication.failed', credentialIds: ['x509-subject'], credentialTypes: ['usernamePassword'], handlers: [], reasons: ['No handler'] },
  { type: 'authentication.throttled', key: '10.0.0.7 alice', lockSeconds: 60, failures: 5 },
  { type: 'otp.reused', username: 'casuser' },
  { type: 'ticket.created', kind: 'TGT', ticket: 'TGT-1#abcdef', principal: 'casuser' },
  { type: 'ticket.created', kind: 'ST', ticket: 'ST-2#123456', principal: 'casuser', service: 'https://app.example.org/home' },
  { type: 'ticket.validated', ticket: 'ST-2#123456', principal: 'casuser', service: 'https://app.example.org/home' },
  { type: 'ticket.validation.failed', ticket: 'ST-3#654321', code: 'INVALID_SERVICE', service: 'https://evil.example.com/' },
  { type: 'ticket.destroyed', ticket: 'TGT-1#abcdef', descendants: 1 },
  { type: 'server.error', error: new Error('db1.internal down'), context: 'POST /cas/v1/tickets' },
  { type: 'readiness.failed', component: 'storage', reason: 'no answer within 2000 ms' },
  { type: 'request.unreadable', code: 'HPE_INVALID_HEADER_TOKEN', peerAddress: '203.0.113.7' },
  { type: 'request.unreadable', code: 'ERR_HTTP_REQUEST_TIMEOUT' },
  { type: 'ticket.refused', kind: 'TGT', reason: 'PRINCIPAL_NOT_ALLOWED', service: 'https://staff.example.org/', principal: 'alice' },
  { type: 'ticket.refused', kind: 'ST', reason: 'TGT_NOT_FOUND', service: 'https://app.example.org/home', tgt: 'TGT-9#fedcba' },
  { type: 'ticket.refused', kind: 'ST', reason: 'TGT_NOT_FOUND', service: 'https://app.example.org/home', tgt: 'TGT-8#fedcba' },
  { type: 'authentication.refused', principal: 'alice', service: 'https://staff.example.org/', reason: 'PRINCIPAL_NOT_ALLOWED' },
  { type: 'service.refused', reason: 'INVALID_SERVICE_DEFINITION', principal: 'casuser', field: 'properties.x509-subject' },
];

// docs/protocol.md §10.2 — the counters fed by domain events, the histogram, the live TGT gauge
describe('metrics from domain events (docs/protocol.md §10.2)', () => {
  it('counts each event under bounded labels only', async () => {
    const metrics = new TesseraMetrics(noTgts);
    const sink = new MetricsEventSink(metrics, moduleEvents());
    for (const event of EVENTS) sink.emit(event);
    expect(await linesOf(metrics, 'tessera_tickets_issued_total')).to.deep.equal(['tessera_tickets_issued_total{kind="TGT"} 1', 'tessera_tickets_issued_total{kind="ST"} 1']);
    expect(await linesOf(metrics, 'tessera_ticket_validations_total')).to.deep.equal([
      'tessera_ticket_validations_total{outcome="success"} 1',
      'tessera_ticket_validations_total{outcome="INVALID_SERVICE"} 1',
    ]);
    expect(await linesOf(metrics, 'tessera_authentications_total')).to.deep.equal([
      'tessera_authentications_total{handler="config-users",outcome="success"} 1',
      'tessera_authentications_total{handler="totp",outcome="success"} 1',
      'tessera_authentications_total{handler="config-users",outcome="failure"} 1',
      'tessera_authentications_total{handler="ldap",outcome="failure"} 1',
      'tessera_authentications_total{handler="none",outcome="failure"} 1',
    ]);
    expect(await linesOf(metrics, 'tessera_throttle_locks_total')).to.deep.equal(['tessera_throttle_locks_total 1']);
    expect(await linesOf(metrics, 'tessera_otp_reuses_total')).to.deep.equal(['tessera_otp_reuses_total 1']);
    expect(await linesOf(metrics, 'tessera_server_errors_total')).to.deep.equal(['tessera_server_errors_total 1']);
    expect(await linesOf(metrics, 'tessera_unreadable_requests_total')).to.deep.equal([
      'tessera_unreadable_requests_total{code="HPE_INVALID_HEADER_TOKEN"} 1',
      'tessera_unreadable_requests_total{code="ERR_HTTP_REQUEST_TIMEOUT"} 1',
    ]);
    expect(await linesOf(metrics, 'tessera_refusals_total')).to.deep.equal([
      'tessera_refusals_total{request="TGT",reason="PRINCIPAL_NOT_ALLOWED"} 1',
      'tessera_refusals_total{request="ST",reason="TGT_NOT_FOUND"} 2',
      'tessera_refusals_total{request="authentication",reason="PRINCIPAL_NOT_ALLOWED"} 1',
      'tessera_refusals_total{request="registration",reason="INVALID_SERVICE_DEFINITION"} 1',
    ]);
  });

  it('never carries a principal, username, throttle key, ticket fingerprint, service, definition field or error text', async () => {
    const metrics = new TesseraMetrics(noTgts);
    const sink = new MetricsEventSink(metrics, moduleEvents());
    for (const event of EVENTS) sink.emit(event);
    const text = await metrics.render();
    for (const secret of ['casuser', 'alice', '10.0.0.7', 'x509-subject', 'abcdef', '123456', '654321', 'fedcba', 'example', 'db1.internal']) {
      expect(text, secret).not.to.include(secret);
    }
  });

  it('times requests by method, route pattern and status: unmatched routes and invented methods are one label each', async () => {
    const metrics = new TesseraMetrics(noTgts);
    metrics.observeRequest('POST', '/cas/v1/tickets/:tgt', 200, 0.012);
    metrics.observeRequest('GET', undefined, 404, 0.001);
    metrics.observeRequest('BREW', undefined, 405, 0.001);
    expect(await linesOf(metrics, 'tessera_http_request_duration_seconds_count')).to.deep.equal([
      'tessera_http_request_duration_seconds_count{method="POST",route="/cas/v1/tickets/:tgt",status="200"} 1',
      'tessera_http_request_duration_seconds_count{method="GET",route="unmatched",status="404"} 1',
      'tessera_http_request_duration_seconds_count{method="OTHER",route="unmatched",status="405"} 1',
    ]);
    expect(await linesOf(metrics, 'tessera_http_request_duration_seconds_bucket')).to.include('tessera_http_request_duration_seconds_bucket{le="0.025",method="POST",route="/cas/v1/tickets/:tgt",status="200"} 1');
  });

  it('reads the live TGT gauge at each scrape; while the store fails it keeps the last count', async () => {
    let count: number | Error = 3;
    const metrics = new TesseraMetrics({ liveTgts: () => (count instanceof Error ? Promise.reject(count) : Promise.resolve(count)) });
    expect(await linesOf(metrics, 'tessera_tgts_live')).to.deep.equal(['tessera_tgts_live 3']);
    count = 5;
    expect(await linesOf(metrics, 'tessera_tgts_live')).to.deep.equal(['tessera_tgts_live 5']);
    count = new Error('database away');
    expect(await linesOf(metrics, 'tessera_tgts_live')).to.deep.equal(['tessera_tgts_live 5']);
  });

  it('keeps one registry per instance, with the process metrics in each', async () => {
    const [first, second] = [new TesseraMetrics(noTgts), new TesseraMetrics(noTgts)];
    new MetricsEventSink(first, moduleEvents()).emit(EVENTS[5]!);
    expect(await linesOf(first, 'tessera_tickets_issued_total')).to.have.length(1);
    expect(await linesOf(second, 'tessera_tickets_issued_total')).to.deep.equal([]);
    expect(await linesOf(second, 'process_cpu_user_seconds_total')).to.have.length(1);
  });
});

describe('event fan-out (docs/protocol.md §10.2)', () => {
  it('hands every event to each sink in order; a sink that throws affects no other', () => {
    const seen: string[] = [];
    const recording = (name: string): EventSink => ({ emit: (event) => seen.push(`${name}:${event.type}`) });
    const broken: EventSink = {
      emit: () => {
        throw new Error('broken sink');
      },
    };
    const sink = new FanOutEventSink([recording('log'), broken, recording('metrics')]);
    sink.emit(EVENTS[5]!);
    sink.emit(EVENTS[7]!);
    expect(seen).to.deep.equal(['log:ticket.created', 'metrics:ticket.created', 'log:ticket.validated', 'metrics:ticket.validated']);
  });
});
