import type { DomainEvent, EventSink } from '@tessera/core';

/**
 * The one EventSink the core and the web app report to: it hands every event to each sink bound to
 * TOKENS.EventSinks (logging, metrics, ...), in binding order. A sink that throws is skipped for
 * that event; the others still get it, and the use case never sees the failure.
 */
export class FanOutEventSink implements EventSink {
  constructor(private readonly sinks: readonly EventSink[]) {}

  emit(event: DomainEvent): void {
    for (const sink of this.sinks) {
      try {
        sink.emit(event);
      } catch {
        // Each sink is isolated: one broken sink must not silence the others.
      }
    }
  }
}
