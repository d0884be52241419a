import type { DomainEvent, EventSink, ModuleEvent, RequestOrigin } from '@tessera/core';

/**
 * The one EventSink the core and the web app report to: it hands every event, with the request it
 * came from, to each sink bound to KEYS.EventSinks (the application log, metrics, the audit trail),
 * in binding order. A sink that throws is skipped for that event; the others still get it, and the
 * use case never sees the failure.
 */
export class FanOutEventSink implements EventSink {
  constructor(private readonly sinks: readonly EventSink[]) {}

  emit(event: DomainEvent | ModuleEvent, origin?: RequestOrigin): void {
    for (const sink of this.sinks) {
      try {
        sink.emit(event, origin);
      } catch {
        // Each sink is isolated: one broken sink must not silence the others.
      }
    }
  }
}
