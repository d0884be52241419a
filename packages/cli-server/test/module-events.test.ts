import { expect } from 'chai';
import { AuditEventSink, createAuditLogger, createLogger, declareEvent, LoggingEventSink, MetricsEventSink, ModuleEvents, moduleEvents, TesseraMetrics } from '@tessera/cli-server';
import type { LiveTgtCount } from '@tessera/core';
import { jsonLines } from './json-lines.js';

/** A module's event as its core folder would declare it. */
type ParcelDeliveredEvent = { readonly type: 'parcel.delivered'; readonly recipient: string; readonly depot: string; readonly courier: string; readonly route: 'fast' | 'slow' };

const PARCEL_DELIVERED = declareEvent<ParcelDeliveredEvent>({
  type: 'parcel.delivered',
  level: 'info',
  audit: { category: 'service', outcome: 'success', who: 'recipient', omit: ['courier'] },
  counts: [{ counter: { name: 'tessera_parcels_delivered_total', help: 'Parcels delivered, by route.', labelNames: ['route'] }, labels: (event) => ({ route: event.route }) }],
});

const EVENT: ParcelDeliveredEvent = { type: 'parcel.delivered', recipient: 'alice', depot: 'north', courier: 'bob', route: 'fast' };
const ORIGIN = { clientAddress: '203.0.113.7', requestId: 'req-1' };
const noTgts: LiveTgtCount = { liveTgts: () => Promise.resolve(0) };

// docs/adding-a-module.md §2.1 — a module's event reaches the log, the audit trail and the metrics as its declaration says
describe('events a module declares (docs/adding-a-module.md §2.1)', () => {
  it('the log writes it at its declared level, with its fields and the request id', async () => {
    const { lines, stream } = jsonLines();
    new LoggingEventSink(createLogger('info', stream), new ModuleEvents([PARCEL_DELIVERED])).emit(EVENT, ORIGIN);
    await new Promise((resolve) => process.nextTick(resolve));
    expect(lines).to.have.length(1);
    expect(lines[0]).to.deep.include({ level: 'info', event: 'parcel.delivered', recipient: 'alice', depot: 'north', courier: 'bob', route: 'fast', requestId: 'req-1' });
  });

  it('the audit trail records it as declared: who taken out of the details, the omitted fields left out', () => {
    const { lines, stream } = jsonLines();
    new AuditEventSink(createAuditLogger(stream, 'node1'), new ModuleEvents([PARCEL_DELIVERED])).emit(EVENT, ORIGIN);
    const { time, ...line } = lines[0]!;
    expect(time).to.be.a('string');
    expect(line).to.deep.equal({ level: 'info', node: 'node1', audit: 'service', action: 'parcel.delivered', outcome: 'success', who: 'alice', address: '203.0.113.7', requestId: 'req-1', depot: 'north', route: 'fast' });
  });

  it('an event declared without an audit record, or not declared at all, reaches no audit line', () => {
    const { lines, stream } = jsonLines();
    const logOnly = declareEvent<ParcelDeliveredEvent>({ type: 'parcel.delivered', level: 'warn' });
    new AuditEventSink(createAuditLogger(stream, 'node1'), new ModuleEvents([logOnly])).emit(EVENT, ORIGIN);
    new AuditEventSink(createAuditLogger(stream, 'node1'), new ModuleEvents([])).emit(EVENT, ORIGIN);
    expect(lines).to.deep.equal([]);
  });

  it('the metrics show its counter from the start and count it under the labels it declares', async () => {
    const metrics = new TesseraMetrics(noTgts);
    const sink = new MetricsEventSink(metrics, new ModuleEvents([PARCEL_DELIVERED]));
    expect(await metrics.render()).to.include('# TYPE tessera_parcels_delivered_total counter');
    sink.emit(EVENT);
    sink.emit({ ...EVENT, route: 'slow' });
    sink.emit(EVENT);
    const samples = (await metrics.render()).split('\n').filter((line) => line.startsWith('tessera_parcels_delivered_total{'));
    expect(samples).to.deep.equal(['tessera_parcels_delivered_total{route="fast"} 2', 'tessera_parcels_delivered_total{route="slow"} 1']);
  });

  it('a type declared twice, or one of core events, is refused', () => {
    expect(() => new ModuleEvents([PARCEL_DELIVERED, PARCEL_DELIVERED])).to.throw('event parcel.delivered is declared twice');
    expect(() => new ModuleEvents([{ type: 'ticket.created', level: 'info' }])).to.throw("event ticket.created is core's");
  });

  it("the modules' own declarations hold together: each type once, none of core's, each counter with one help and one set of labels", () => {
    const declared = moduleEvents();
    for (const type of ['authentication.throttled', 'otp.reused', 'x509.certificate.ignored', 'proxy.callback.failed', 'service.refused', 'login.token.refused', 'logout.request.delivered', 'logout.request.failed', 'logout.request.dropped']) {
      expect(declared.of(type), type).not.to.equal(undefined);
    }
    expect(() => new TesseraMetrics(noTgts, declared.counters())).not.to.throw();
  });
});
