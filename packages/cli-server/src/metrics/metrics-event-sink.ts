import { isDomainEvent, type DomainEvent, type EventSink, type ModuleEvent } from '@tessera/core';
import type { Counter } from 'prom-client';
import type { EventCount, ModuleEvents } from '../events/module-events.js';
import type { TesseraMetrics } from './tessera-metrics.js';

/** The label of a failed authentication no handler was asked about (no handler supports the credential). */
export const NO_HANDLER = 'none';

/**
 * Counts domain events, and the modules' events as their declarations say. Only bounded values become
 * labels (ticket kind, CAS failure code, handler name, refusal reason code); principals, ticket
 * fingerprints, services and throttle keys never do.
 */
export class MetricsEventSink implements EventSink {
  /** The counters each declared module event adds to, found once. */
  private readonly moduleCounts = new Map<string, readonly { readonly counter: Counter; readonly count: EventCount<ModuleEvent> }[]>();

  constructor(
    private readonly metrics: TesseraMetrics,
    private readonly modules: ModuleEvents,
  ) {
    for (const counter of modules.counters()) metrics.counter(counter);
  }

  emit(event: DomainEvent | ModuleEvent): void {
    if (!isDomainEvent(event)) return this.countModuleEvent(event);
    const { metrics } = this;
    switch (event.type) {
      case 'ticket.created':
        metrics.ticketsIssued.inc({ kind: event.kind });
        break;
      case 'ticket.refused':
        metrics.refusals.inc({ request: event.kind, reason: event.reason });
        break;
      case 'authentication.refused':
        metrics.refusals.inc({ request: 'authentication', reason: event.reason });
        break;
      case 'ticket.validated':
        metrics.ticketValidations.inc({ outcome: 'success' });
        break;
      case 'ticket.validation.failed':
        metrics.ticketValidations.inc({ outcome: event.code });
        break;
      case 'authentication.succeeded':
        for (const handler of event.handlers) metrics.authentications.inc({ handler, outcome: 'success' });
        break;
      case 'authentication.failed':
        for (const handler of event.handlers.length > 0 ? event.handlers : [NO_HANDLER]) metrics.authentications.inc({ handler, outcome: 'failure' });
        break;
      case 'server.error':
        metrics.serverErrors.inc();
        break;
      case 'request.unreadable':
        metrics.unreadableRequests.inc({ code: event.code });
        break;
      default:
        break;
    }
  }

  private countModuleEvent(event: ModuleEvent): void {
    let counts = this.moduleCounts.get(event.type);
    if (counts === undefined) {
      counts = (this.modules.of(event.type)?.counts ?? []).map((count) => ({ counter: this.metrics.counter(count.counter), count }));
      this.moduleCounts.set(event.type, counts);
    }
    for (const { counter, count } of counts) {
      const labels = count.labels?.(event);
      if (labels === undefined) counter.inc();
      else counter.inc(labels);
    }
  }
}
