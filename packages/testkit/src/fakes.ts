import {
  checkRecordNamespace,
  checkRecordWrite,
  compareServices,
  decodeRecordValue,
  encodeRecordValue,
  type Authentication,
  type Clock,
  type DomainEvent,
  type DomainEventType,
  type ModuleEvent,
  type EventSink,
  type FoundRecord,
  type JsonValue,
  type PasswordHasher,
  type RecordPlacement,
  type RecordStore,
  type RecordStores,
  type RequestOrigin,
  type RegisteredService,
  type ServiceRegistry,
  type Ticket,
  type TicketGrantingTicket,
  type TicketStore,
  type UserDirectory,
  type UserRecord,
  type ValidatableTicket,
} from '@tessera/core';

/**
 * Minimal fakes of core's ports for domain and route tests, which must not depend on an adapter
 * (adapter-memory's tests depend on testkit). The store fakes are held to the same contract suites
 * as the adapters (packages/testkit/test/fakes-contracts.test.ts), so no unit test leans on a quirk.
 * The login and otp modules' stores need no fake: theirs work on MapRecordStores.
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
  consume(id: string): Promise<ValidatableTicket | undefined> {
    const ticket = this.live(id);
    if (ticket?.kind !== 'ST' && ticket?.kind !== 'PT') return Promise.resolve(undefined);
    if (ticket.usesLeft !== undefined && ticket.usesLeft > 1) this.tickets.set(id, { ...ticket, usesLeft: ticket.usesLeft - 1 });
    else this.tickets.delete(id);
    return Promise.resolve(ticket);
  }
  touch(id: string, expiresAt: number): Promise<TicketGrantingTicket | undefined> {
    const ticket = this.live(id);
    if (ticket?.kind !== 'TGT') return Promise.resolve(undefined);
    const updated = { ...ticket, expiresAt, servicesGranted: ticket.servicesGranted + 1 };
    this.tickets.set(id, updated);
    return Promise.resolve(updated);
  }
  updateAuthentication({ id }: TicketGrantingTicket, authentication: Authentication): Promise<TicketGrantingTicket | undefined> {
    const ticket = this.live(id);
    if (ticket?.kind !== 'TGT') return Promise.resolve(undefined);
    const updated = { ...ticket, authentication };
    this.tickets.set(id, updated);
    return Promise.resolve(updated);
  }
  remove(id: string): Promise<void> {
    this.tickets.delete(id);
    return Promise.resolve();
  }
  /** Counts only live descendants: an expired one is gone for every method, though still held until removed here. */
  removeDescendants(tgtId: string): Promise<number> {
    const now = this.clock.now();
    let live = 0;
    for (const [id, ticket] of this.tickets) {
      if (ticket.kind === 'TGT' || ticket.tgtId !== tgtId) continue;
      this.tickets.delete(id);
      if (ticket.expiresAt > now) live += 1;
    }
    return Promise.resolve(live);
  }
}

/** A record as the fake holds it: JSON text, so values are copied as every adapter copies them. */
interface MapRecord extends RecordPlacement {
  readonly json: string;
  readonly version: string;
  readonly expiresAt: number;
}

/**
 * Records in maps, one per namespace, every method one synchronous step; groups and due times are
 * found by scanning every record. Versions count writes of the whole fake, so none is ever given twice.
 */
export class MapRecordStores implements RecordStores {
  readonly namespaces = new Map<string, Map<string, MapRecord>>();
  private writes = 0;
  constructor(private readonly clock: Clock) {}

  namespace<T extends JsonValue>(name: string): RecordStore<T> {
    checkRecordNamespace(name);
    const records = this.namespaces.get(name) ?? new Map<string, MapRecord>();
    this.namespaces.set(name, records);
    const live = (id: string) => {
      const record = records.get(id);
      return record !== undefined && record.expiresAt > this.clock.now() ? record : undefined;
    };
    const stored = (record: MapRecord) => {
      const { json, ...rest } = record;
      return { ...rest, value: decodeRecordValue<T>(json) };
    };
    const found = (filter: (record: MapRecord) => boolean) =>
      [...records].filter(([id, record]) => live(id) !== undefined && filter(record)).map(([id, record]): FoundRecord<T> => ({ id, ...stored(record) }));
    const write = (id: string, value: T, expiresAt: number, placement: RecordPlacement = {}) => {
      checkRecordWrite(expiresAt, placement);
      this.writes += 1;
      records.set(id, { json: encodeRecordValue(value), version: String(this.writes), expiresAt, ...placement });
    };
    const replace = (id: string, expected: string | undefined, value: T, expiresAt: number, placement?: RecordPlacement) =>
      settle(() => {
        if (live(id)?.version !== expected) return false;
        write(id, value, expiresAt, placement);
        return true;
      });
    return {
      put: (id, value, expiresAt, placement) => settle(() => write(id, value, expiresAt, placement)),
      get: (id) => Promise.resolve(this.value<T>(live(id))),
      insert: (id, value, expiresAt, placement) => replace(id, undefined, value, expiresAt, placement),
      take: (id) => {
        const record = live(id);
        records.delete(id);
        return Promise.resolve(this.value<T>(record));
      },
      delete: (id) => {
        records.delete(id);
        return Promise.resolve();
      },
      read: (id) => {
        const record = live(id);
        return Promise.resolve(record && stored(record));
      },
      replace,
      findByGroup: (group) => Promise.resolve(found((record) => record.group === group)),
      deleteGroup: (group) => {
        for (const [id, record] of records) if (record.group === group) records.delete(id);
        return Promise.resolve();
      },
      due: (now, limit) => {
        const due = found((record) => record.dueAt !== undefined && record.dueAt <= now);
        return Promise.resolve(due.sort((a, b) => a.dueAt! - b.dueAt!).slice(0, limit));
      },
    };
  }

  private value<T extends JsonValue>(record: MapRecord | undefined): T | undefined {
    return record && decodeRecordValue<T>(record.json);
  }
}

/** The result of a synchronous step as a promise, which rejects when the step throws. */
function settle<R>(step: () => R): Promise<R> {
  return new Promise((resolve) => resolve(step()));
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

/** Keeps every event and the request origin it came with, so tests can assert what was reported (and that no secret was). */
export class RecordingEvents implements EventSink {
  readonly events: (DomainEvent | ModuleEvent)[] = [];
  readonly origins = new Map<DomainEvent | ModuleEvent, RequestOrigin | undefined>();
  emit(event: DomainEvent | ModuleEvent, origin?: RequestOrigin): void {
    this.events.push(event);
    this.origins.set(event, origin);
  }
  /** Core's events of this type; a module's events as the module declares them: `ofType<OtpReusedEvent>('otp.reused')`. */
  ofType<T extends DomainEventType>(type: T): Extract<DomainEvent, { type: T }>[];
  ofType<E extends ModuleEvent>(type: E['type']): E[];
  ofType(type: string): (DomainEvent | ModuleEvent)[] {
    return this.events.filter((e) => e.type === type);
  }
}

export class ListUserDirectory implements UserDirectory {
  constructor(private readonly users: readonly UserRecord[]) {}
  findByUsername(username: string): Promise<UserRecord | undefined> {
    return Promise.resolve(this.users.find((user) => user.username === username));
  }
}

/** A spy standing in for argon2: a "hash" is `hashed:<password>`, and every verification is counted. */
export class CountingHasher implements PasswordHasher {
  verifications = 0;
  hash(password: string): Promise<string> {
    return Promise.resolve(`hashed:${password}`);
  }
  verify(phc: string, password: string): Promise<boolean> {
    this.verifications += 1;
    return Promise.resolve(phc === `hashed:${password}`);
  }
}
