import {
  compareServices,
  type Clock,
  type DomainEvent,
  type EventSink,
  type RegisteredService,
  type ServiceRegistry,
  type ServiceTicket,
  type Ticket,
  type TicketGrantingTicket,
  type TicketStore,
} from '@tessera/core';

/**
 * Minimal fakes of core's ports for domain and route tests, which must not depend on an adapter.
 * Adapters themselves are held to the contract suites, not to these.
 */
export class MapTicketStore implements TicketStore {
  readonly tickets = new Map<string, Ticket>();
  constructor(private readonly clock: Clock) {}

  private live(id: string): Ticket | undefined {
    const ticket = this.tickets.get(id);
    return ticket && ticket.expiresAt > this.clock.now() ? ticket : undefined;
  }
  save(ticket: Ticket): Promise<void> {
    this.tickets.set(ticket.id, ticket);
    return Promise.resolve();
  }
  get(id: string): Promise<Ticket | undefined> {
    return Promise.resolve(this.live(id));
  }
  consume(id: string): Promise<ServiceTicket | undefined> {
    const ticket = this.live(id);
    if (ticket?.kind !== 'ST') return Promise.resolve(undefined);
    this.tickets.delete(id);
    return Promise.resolve(ticket);
  }
  touch(id: string, expiresAt: number): Promise<TicketGrantingTicket | undefined> {
    const ticket = this.live(id);
    if (ticket?.kind !== 'TGT') return Promise.resolve(undefined);
    const updated = { ...ticket, expiresAt, servicesGranted: ticket.servicesGranted + 1 };
    this.tickets.set(id, updated);
    return Promise.resolve(updated);
  }
  remove(id: string): Promise<void> {
    this.tickets.delete(id);
    return Promise.resolve();
  }
  removeDescendants(tgtId: string): Promise<number> {
    let removed = 0;
    for (const [id, ticket] of this.tickets) {
      if (ticket.kind === 'ST' && ticket.tgtId === tgtId) removed += Number(this.tickets.delete(id));
    }
    return Promise.resolve(removed);
  }
}

export class ListServiceRegistry implements ServiceRegistry {
  private services: RegisteredService[];
  constructor(initial: readonly RegisteredService[] = []) {
    this.services = [...initial].sort(compareServices);
  }
  save(service: RegisteredService): Promise<RegisteredService> {
    this.services = [...this.services.filter((s) => s.id !== service.id), service].sort(compareServices);
    return Promise.resolve(service);
  }
  findById(id: number): Promise<RegisteredService | undefined> {
    return Promise.resolve(this.services.find((s) => s.id === id));
  }
  list(): Promise<readonly RegisteredService[]> {
    return Promise.resolve(this.services);
  }
  remove(id: number): Promise<boolean> {
    const before = this.services.length;
    this.services = this.services.filter((s) => s.id !== id);
    return Promise.resolve(this.services.length < before);
  }
}

/** Keeps every event, so tests can assert what was reported (and that no secret was). */
export class RecordingEvents implements EventSink {
  readonly events: DomainEvent[] = [];
  emit(event: DomainEvent): void {
    this.events.push(event);
  }
  ofType<T extends DomainEvent['type']>(type: T): Extract<DomainEvent, { type: T }>[] {
    return this.events.filter((e): e is Extract<DomainEvent, { type: T }> => e.type === type);
  }
}
