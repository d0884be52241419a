import type { DomainEvent } from '../domain/events.js';

/** Receives what happened. Must not throw and must not block: logging and metrics hang off it. */
export interface EventSink {
  emit(event: DomainEvent): void;
}

export const discardEvents: EventSink = { emit: () => undefined };
