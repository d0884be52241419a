import type { DomainEvent, EventSink, RequestOrigin } from '@tessera/core';

/**
 * The one EventSink of the server: hands every event to each listener (the application log, the
 * audit trail, ...). A listener that throws is skipped, never felt by the others or by the request.
 */
export class FanOutEventSink implements EventSink {
  constructor(private readonly listeners: readonly EventSink[]) {}

  emit(event: DomainEvent, origin?: RequestOrigin): void {
    for (const listener of this.listeners) {
      try {
        listener.emit(event, origin);
      } catch {
        // EventSink's contract is not to throw; a listener breaking it loses its own record only.
      }
    }
  }
}
