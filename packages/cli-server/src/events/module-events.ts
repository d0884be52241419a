import { isDomainEventType, type ModuleEvent } from '@tessera/core';

/** The log level of an event's line. */
export type EventLevel = 'info' | 'warn' | 'error';

/** What an audit record is about: the `audit` field, for filtering one kind of action. */
export type AuditCategory = 'authentication' | 'ticket' | 'validation' | 'logout' | 'service' | 'release';

/**
 * How a module's event becomes an audit record: its category and outcome; `who` names the field
 * holding the principal or username (none: nobody is known); every other field but those in `omit`
 * is a detail, in the event's order.
 */
export interface EventAudit<Event extends ModuleEvent> {
  readonly category: AuditCategory;
  readonly outcome: 'success' | 'failure';
  readonly who?: keyof Event & string;
  readonly omit?: readonly (keyof Event & string)[];
}

/** A Prometheus counter: its name, help and label names. Labels hold bounded values only, never a principal, ticket or URL. */
export interface CounterSpec {
  readonly name: string;
  readonly help: string;
  readonly labelNames?: readonly string[];
}

/** A counter an event adds one to, with the labels read from the event. */
export interface EventCount<Event extends ModuleEvent> {
  readonly counter: CounterSpec;
  labels?(event: Event): Readonly<Record<string, string>>;
}

/**
 * A module's event as the server reports it: its log level, its audit record (none: the application
 * log only) and the counters it adds to. Declared in the module's declaration (`events`), typed by
 * the event type the module's core folder exports (docs/adding-a-module.md).
 */
export interface ModuleEventDeclaration<Event extends ModuleEvent = ModuleEvent> {
  readonly type: Event['type'];
  readonly level: EventLevel;
  readonly audit?: EventAudit<Event>;
  readonly counts?: readonly EventCount<Event>[];
}

/** A declaration typed by its event, as the module list holds them all. */
export function declareEvent<Event extends ModuleEvent>(declaration: ModuleEventDeclaration<Event>): ModuleEventDeclaration {
  return declaration as unknown as ModuleEventDeclaration;
}

/**
 * The declared events of the modules, by type: what the logging, audit and metrics sinks consult for
 * any event that is not core's. A type declared twice, or one of core's, is a programming error.
 */
export class ModuleEvents {
  private readonly byType = new Map<string, ModuleEventDeclaration>();

  constructor(declarations: Iterable<ModuleEventDeclaration>) {
    for (const declaration of declarations) {
      if (isDomainEventType(declaration.type)) throw new Error(`event ${declaration.type} is core's: a module declares events of its own`);
      if (this.byType.has(declaration.type)) throw new Error(`event ${declaration.type} is declared twice`);
      this.byType.set(declaration.type, declaration);
    }
  }

  of(type: string): ModuleEventDeclaration | undefined {
    return this.byType.get(type);
  }

  /** The counters the declared events add to, each once. */
  counters(): CounterSpec[] {
    const byName = new Map<string, CounterSpec>();
    for (const declaration of this.byType.values()) for (const { counter } of declaration.counts ?? []) byName.set(counter.name, counter);
    return [...byName.values()];
  }
}
