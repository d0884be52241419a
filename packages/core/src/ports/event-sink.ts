import type { DomainEvent, ModuleEvent, RequestOrigin } from '../domain/events.js';

/** Receives what happened, core's events and the modules'. Must not throw and must not block: logging and metrics hang off it. */
export interface EventSink {
  /** `origin`: the request that caused the event, when the use case was given one. */
  emit(event: DomainEvent | ModuleEvent, origin?: RequestOrigin): void;
}
