import {
  AuthenticationFailedError,
  compareServices,
  type Clock,
  type Credential,
  type CredentialHandler,
  type DomainEvent,
  type EventSink,
  type Principal,
  type RegisteredService,
  type ServiceRegistry,
  type ServiceTicket,
  type Ticket,
  type TicketGrantingTicket,
  type TicketStore,
} from '@tessera/core';

/** Tiny fakes of core's ports for route tests; adapters never import each other. */
export class ManualClock implements Clock {
  constructor(private time = Date.UTC(2026, 10, 21, 10, 0, 0)) {}
  now(): number {
    return this.time;
  }
  advanceSeconds(seconds: number): void {
    this.time += seconds * 1000;
  }
}

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

/** A store whose backend is gone: every call fails, by default with a plain Error as a broken driver would. */
export class ExplodingTicketStore implements TicketStore {
  constructor(private readonly reason: unknown = new Error('backend exploded')) {}
  private fail(): Promise<never> {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- drivers may reject with anything
    return Promise.reject(this.reason);
  }
  save = (): Promise<void> => this.fail();
  get = (): Promise<Ticket | undefined> => this.fail();
  consume = (): Promise<ServiceTicket | undefined> => this.fail();
  touch = (): Promise<TicketGrantingTicket | undefined> => this.fail();
  remove = (): Promise<void> => this.fail();
  removeDescendants = (): Promise<number> => this.fail();
}

export class ListServiceRegistry implements ServiceRegistry {
  private services: RegisteredService[];
  constructor(initial: readonly RegisteredService[]) {
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

export interface FakeUser {
  readonly password: string;
  readonly attributes: Principal['attributes'];
}

/** Accepts username/password pairs from a table; refuses everything else with a safe reason. */
export class FakePasswordHandler implements CredentialHandler {
  readonly name = 'fake-users';
  constructor(private readonly users: Readonly<Record<string, FakeUser>>) {}
  supports(credential: Credential): boolean {
    return credential.type === 'usernamePassword';
  }
  authenticate(credential: Credential): Promise<Principal> {
    const user = Object.hasOwn(this.users, credential.username) ? this.users[credential.username] : undefined;
    if (!user || credential.type !== 'usernamePassword' || user.password !== credential.password) {
      return Promise.reject(new AuthenticationFailedError(['Authentication failed: invalid credentials.']));
    }
    return Promise.resolve({ id: credential.username, attributes: user.attributes });
  }
}

export class RecordingEvents implements EventSink {
  readonly events: DomainEvent[] = [];
  emit(event: DomainEvent): void {
    this.events.push(event);
  }
  ofType<T extends DomainEvent['type']>(type: T): Extract<DomainEvent, { type: T }>[] {
    return this.events.filter((e): e is Extract<DomainEvent, { type: T }> => e.type === type);
  }
}
