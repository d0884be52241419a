import { expect } from 'chai';
import { Writable } from 'node:stream';
import { ticketFingerprint, type DomainEvent, type EventSink, type ModuleEvent } from '@tessera/core';
import { auditRecordOf, AuditEventSink, createAuditLogger, FanOutEventSink, moduleEvents } from '@tessera/cli-server';
import { jsonLines } from './json-lines.js';

const ST = 'ST-5-kM3tQ9zF8wXyLp2VbN7cR4-node1';
const ORIGIN = { clientAddress: '203.0.113.7', requestId: 'req-1', endpoint: 'POST /cas/v1/tickets' };

function auditTrail() {
  const { lines, stream } = jsonLines();
  return { lines, sink: new AuditEventSink(createAuditLogger(stream, 'node1'), moduleEvents()) };
}

/** One event of each type, and the audit, outcome and who its record must have. */
const CASES: [DomainEvent | ModuleEvent, string, string, string | undefined][] = [
  [{ type: 'authentication.succeeded', principal: 'alice', handlers: ['config-users'], credentialTypes: ['usernamePassword'] }, 'authentication', 'success', 'alice'],
  [{ type: 'authentication.failed', credentialIds: ['alice', 'alice'], credentialTypes: ['usernamePassword', 'otp'], handlers: ['config-users', 'config-users-totp'], reasons: ['Invalid.'] }, 'authentication', 'failure', 'alice'],
  [{ type: 'authentication.failed', credentialIds: ['alice', 'bob'], credentialTypes: ['usernamePassword', 'otp'], handlers: ['config-users', 'config-users-totp'], reasons: ['Mixed.'] }, 'authentication', 'failure', 'alice,bob'],
  [{ type: 'authentication.throttled', key: '203.0.113.7 alice', username: 'alice', lockSeconds: 60, failures: 5 }, 'authentication', 'failure', 'alice'],
  [{ type: 'otp.reused', username: 'alice' }, 'authentication', 'failure', 'alice'],
  [{ type: 'x509.certificate.ignored', source: 'header', reason: 'untrusted peer', peer: '203.0.113.7' }, 'authentication', 'failure', undefined],
  [{ type: 'ticket.created', kind: 'TGT', ticket: 'TGT-1#abc', principal: 'alice' }, 'ticket', 'success', 'alice'],
  [{ type: 'ticket.validated', ticket: 'ST-2#abc', principal: 'alice', service: 'https://app/' }, 'validation', 'success', 'alice'],
  [{ type: 'ticket.validation.failed', ticket: 'ST-2#abc', code: 'INVALID_TICKET', service: 'https://app/' }, 'validation', 'failure', undefined],
  [{ type: 'ticket.destroyed', ticket: 'TGT-1#abc', descendants: 2, principal: 'alice' }, 'logout', 'success', 'alice'],
  [{ type: 'service.saved', serviceId: 7, name: 'App', replaced: false, principal: 'alice' }, 'service', 'success', 'alice'],
  [{ type: 'ticket.refused', kind: 'TGT', reason: 'SERVICE_NOT_AUTHORIZED', service: 'https://evil/', principal: 'alice' }, 'ticket', 'failure', 'alice'],
  [{ type: 'ticket.refused', kind: 'ST', reason: 'TGT_NOT_FOUND', service: 'https://app/', tgt: 'TGT-1#abc' }, 'ticket', 'failure', undefined],
  [{ type: 'authentication.refused', principal: 'alice', service: 'https://app/', reason: 'PRINCIPAL_NOT_ALLOWED' }, 'authentication', 'failure', 'alice'],
  [{ type: 'service.refused', reason: 'MISSING_REQUIRED_ATTRIBUTE', principal: 'alice' }, 'service', 'failure', 'alice'],
  [{ type: 'service.refused', reason: 'TGT_NOT_FOUND', tgt: 'TGT-1#abc' }, 'service', 'failure', undefined],
  [{ type: 'logout.request.dropped', service: 'https://app/', ticket: 'ST-2#abc', principal: 'alice', limit: 100 }, 'logout', 'failure', 'alice'],
];

// docs/architecture.md §6 — the audit trail: what each domain event becomes, and how the listeners stay apart
describe('audit trail (docs/architecture.md §6)', () => {
  it('maps every client action to its audit category, outcome and who; server errors, failed readiness checks and unreadable requests are not audited', () => {
    for (const [event, audit, outcome, who] of CASES) {
      expect(auditRecordOf(event, moduleEvents()), event.type).to.deep.include({ audit, action: event.type, outcome, who });
    }
    expect(auditRecordOf({ type: 'server.error', error: new Error('x'), context: 'GET /' }, moduleEvents())).to.equal(undefined);
    expect(auditRecordOf({ type: 'readiness.failed', component: 'storage', reason: 'unavailable' }, moduleEvents())).to.equal(undefined);
    expect(auditRecordOf({ type: 'request.unreadable', code: 'HPE_INVALID_METHOD', peerAddress: '203.0.113.7' }, moduleEvents())).to.equal(undefined);
  });

  it('writes one JSON line per event: time, node, what, who, the request origin, then the details; failures at warn', () => {
    const { lines, sink } = auditTrail();
    sink.emit({ type: 'ticket.validation.failed', ticket: 'ST-2#abc', code: 'INVALID_SERVICE', service: 'https://app/', principal: 'alice' }, ORIGIN);
    sink.emit({ type: 'authentication.throttled', key: '203.0.113.7 alice', username: 'alice', lockSeconds: 60, failures: 5 }, ORIGIN);
    const [failed, locked] = lines;
    expect(Object.keys(failed!)).to.deep.equal(['level', 'time', 'node', 'audit', 'action', 'outcome', 'who', 'address', 'requestId', 'endpoint', 'ticket', 'code', 'service']);
    expect(failed).to.deep.include({
      level: 'warn',
      node: 'node1',
      audit: 'validation',
      action: 'ticket.validation.failed',
      outcome: 'failure',
      who: 'alice',
      address: '203.0.113.7',
      requestId: 'req-1',
      endpoint: 'POST /cas/v1/tickets',
      code: 'INVALID_SERVICE',
    });
    expect(failed!['time']).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(locked).to.deep.include({ who: 'alice', lockSeconds: 60, failures: 5 }).and.not.have.property('key');
  });

  it('a refusal is a failure line with its reason code and details, who taken out of them', () => {
    const { lines, sink } = auditTrail();
    sink.emit({ type: 'ticket.refused', kind: 'ST', reason: 'SSO_NOT_ALLOWED', service: 'https://nosso/', principal: 'alice', tgt: 'TGT-1#abc' }, ORIGIN);
    sink.emit({ type: 'service.refused', reason: 'INVALID_SERVICE_DEFINITION', principal: 'alice', field: 'serviceId' }, ORIGIN);
    const { time, ...refused } = lines[0]!;
    expect(time).to.be.a('string');
    expect(refused).to.deep.equal({
      level: 'warn',
      node: 'node1',
      audit: 'ticket',
      action: 'ticket.refused',
      outcome: 'failure',
      who: 'alice',
      address: '203.0.113.7',
      requestId: 'req-1',
      endpoint: 'POST /cas/v1/tickets',
      kind: 'ST',
      reason: 'SSO_NOT_ALLOWED',
      service: 'https://nosso/',
      tgt: 'TGT-1#abc',
    });
    expect(lines[1]).to.deep.include({ level: 'warn', audit: 'service', action: 'service.refused', who: 'alice', reason: 'INVALID_SERVICE_DEFINITION', field: 'serviceId' }).and.not.have.property('principal');
  });

  it('without a request (the origin is optional) there is no address, request id or endpoint; successes are at info', () => {
    const { lines, sink } = auditTrail();
    sink.emit({ type: 'service.saved', serviceId: 7, name: 'App', replaced: true });
    expect(lines).to.have.length(1);
    expect(lines[0]).to.include({ level: 'info', audit: 'service', outcome: 'success', serviceId: 7, replaced: true });
    expect(lines[0]).to.not.have.any.keys('who', 'address', 'requestId', 'endpoint');
  });

  it('scrubs a whole ticket id wherever it appears and redacts passwords, as the application log does', () => {
    const { lines, sink } = auditTrail();
    sink.emit({ type: 'ticket.validated', ticket: ticketFingerprint(ST), principal: 'alice', service: `https://app/?ticket=${ST}` });
    expect(JSON.stringify(lines)).to.not.include(ST);
    expect(lines[0]).to.include({ service: `https://app/?ticket=${ticketFingerprint(ST)}` });
    const stream = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>), done()) });
    createAuditLogger(stream, 'node1').info({ who: 'alice', details: { credentials: [{ password: 'Mellon' }] } });
    expect(JSON.stringify(lines[1])).to.include('[redacted]').and.not.include('Mellon');
  });

  it('the fan-out hands each event to every listener; one that throws affects neither the others nor the caller', () => {
    const received: string[] = [];
    const throwing: EventSink = {
      emit: () => {
        throw new Error('disk full');
      },
    };
    const note = (name: string): EventSink => ({ emit: (event, origin) => received.push(`${name} ${event.type} ${origin?.requestId}`) });
    const fanOut = new FanOutEventSink([note('first'), throwing, note('last')]);
    expect(() => fanOut.emit({ type: 'otp.reused', username: 'alice' }, ORIGIN)).to.not.throw();
    expect(received).to.deep.equal(['first otp.reused req-1', 'last otp.reused req-1']);
  });
});
