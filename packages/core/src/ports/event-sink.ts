import type { DomainEvent, RequestOrigin } from '../domain/events.js';

/** Receives what happened. Must not throw and must not block: logging and metrics hang off it. */
export interface EventSink {
  /** `origin`: the request that caused the event, when the use case was given one. */
  emit(event: DomainEvent, origin?: RequestOrigin): void;
}

export const discardEvents: EventSink = { emit: () => undefined };
