import {
  InvalidConfigurationError,
  StoreCapacityExceededError,
  type Authentication,
  type Clock,
  type DescendantTicket,
  type LiveTgtCount,
  type Ticket,
  type TicketGrantingTicket,
  type TicketStore,
  type ValidatableTicket,
} from '@tessera/core';

export interface MemoryTicketStoreOptions {
  /** Most tickets held at once; a full store refuses new ones instead of growing. */
  readonly maxTickets?: number;
}

export const DEFAULT_MAX_TICKETS = 10_000_000;
/** A full store sweeps at most this often, so a flood of refused saves cannot each scan every ticket. */
const FULL_SWEEP_INTERVAL_MS = 1000;

const DONE: Promise<void> = Promise.resolve();
const NOTHING: Promise<undefined> = Promise.resolve(undefined);

/** Everything of a TGT's authentication but its time: the same for every login of one user the same way. */
type SharedAuthentication = Omit<Authentication, 'authenticatedAt'>;

/** One SharedAuthentication and how many held TGTs point to it, so it goes with the last of them. */
interface SharedEntry {
  readonly authentication: SharedAuthentication;
  holders: number;
}

/**
 * A TGT as held: its id, its own times and count as numbers, and its authentication's other parts
 * shared with every TGT of the same login (the principal, its attributes, the credentials' ids and
 * handlers). About a third of the memory of the TicketGrantingTicket it was saved from; `ticket()`
 * builds that again when asked.
 */
class HeldTgt {
  constructor(
    readonly id: string,
    readonly shared: SharedEntry,
    readonly authenticatedAt: number,
    readonly createdAt: number,
    readonly hardExpiresAt: number,
    public expiresAt: number,
    public servicesGranted: number,
    readonly hardTimeout: boolean,
  ) {}

  ticket(): TicketGrantingTicket {
    const { principal, credentials, successes, attributes } = this.shared.authentication;
    // Field by field, which is three times as fast as a spread on the grant path; Required<> makes a
    // field added to Authentication one to add here.
    const authentication = { principal, authenticatedAt: this.authenticatedAt, credentials, successes, attributes } satisfies Required<Authentication>;
    return {
      kind: 'TGT',
      id: this.id,
      authentication,
      createdAt: this.createdAt,
      hardExpiresAt: this.hardExpiresAt,
      expiresAt: this.expiresAt,
      servicesGranted: this.servicesGranted,
      ...(this.hardTimeout && { hardTimeout: true }),
    };
  }
}

type Held = HeldTgt | DescendantTicket;

/**
 * Tickets in one process's memory. Every method runs in one synchronous step, so consume and touch
 * are atomic without locks. Expired tickets are invisible at once and removed by `sweep`.
 */
export class MemoryTicketStore implements TicketStore, LiveTgtCount {
  private readonly tickets = new Map<string, Held>();
  /** Principal id → the distinct shared authentications of its held TGTs (one or a few per user). */
  private readonly shared = new Map<string, SharedEntry[]>();
  /** TGTs held, kept as they come and go: the metrics gauge must not visit a million tickets. */
  private tgtsHeld = 0;
  /** TGT id → ids of the tickets granted under it (STs, PGTs, PTs) still held, so removeDescendants visits only those. */
  private readonly descendants = new Map<string, Set<string>>();
  private readonly maxTickets: number;
  private lastSweepAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly clock: Clock,
    options: MemoryTicketStoreOptions = {},
  ) {
    this.maxTickets = options.maxTickets ?? DEFAULT_MAX_TICKETS;
    if (!Number.isSafeInteger(this.maxTickets) || this.maxTickets < 1) {
      throw new InvalidConfigurationError('maxTickets', `must be a positive integer, got ${this.maxTickets}`);
    }
  }

  /** Tickets held, expired ones not yet swept included. */
  get size(): number {
    return this.tickets.size;
  }

  save(ticket: Ticket): Promise<void> {
    if (this.tickets.size >= this.maxTickets && !this.makeRoom()) {
      return Promise.reject(
        new StoreCapacityExceededError(`The in-memory ticket store is full (maxTickets ${this.maxTickets}); no new ticket until some expire`),
      );
    }
    if (ticket.kind === 'TGT') {
      this.forget(this.tickets.get(ticket.id));
      const { createdAt, hardExpiresAt, expiresAt, servicesGranted } = ticket;
      this.tickets.set(ticket.id, new HeldTgt(ticket.id, this.share(ticket.authentication), ticket.authentication.authenticatedAt, createdAt, hardExpiresAt, expiresAt, servicesGranted, ticket.hardTimeout === true));
      this.tgtsHeld += 1;
    } else {
      this.tickets.set(ticket.id, ticket);
      this.index(ticket);
    }
    return DONE;
  }

  /** Exact for logins and logouts; a TGT that expired still counts until the next `sweep`. */
  liveTgts(): Promise<number> {
    return Promise.resolve(this.tgtsHeld);
  }

  get(id: string): Promise<Ticket | undefined> {
    const held = this.tickets.get(id);
    if (held === undefined || held.expiresAt <= this.clock.now()) return NOTHING;
    return Promise.resolve(held instanceof HeldTgt ? held.ticket() : held);
  }

  consume(id: string): Promise<ValidatableTicket | undefined> {
    const held = this.tickets.get(id);
    if (held === undefined || held instanceof HeldTgt || held.kind === 'PGT' || held.expiresAt <= this.clock.now()) return NOTHING;
    if (held.usesLeft !== undefined && held.usesLeft > 1) {
      this.tickets.set(id, { ...held, usesLeft: held.usesLeft - 1 });
      return Promise.resolve(held);
    }
    this.tickets.delete(id);
    this.unindex(held);
    return Promise.resolve(held);
  }

  touch(tgtId: string, expiresAt: number): Promise<TicketGrantingTicket | undefined> {
    const held = this.tickets.get(tgtId);
    if (!(held instanceof HeldTgt) || held.expiresAt <= this.clock.now()) return NOTHING;
    held.expiresAt = expiresAt;
    held.servicesGranted += 1;
    return Promise.resolve(held.ticket());
  }

  updateAuthentication(tgt: TicketGrantingTicket, authentication: Authentication): Promise<TicketGrantingTicket | undefined> {
    const held = this.tickets.get(tgt.id);
    if (!(held instanceof HeldTgt) || held.expiresAt <= this.clock.now()) return NOTHING;
    const updated = new HeldTgt(held.id, this.share(authentication), authentication.authenticatedAt, held.createdAt, held.hardExpiresAt, held.expiresAt, held.servicesGranted, held.hardTimeout);
    this.release(held.shared);
    this.tickets.set(held.id, updated);
    return Promise.resolve(updated.ticket());
  }

  remove(id: string): Promise<void> {
    const held = this.tickets.get(id);
    if (held === undefined) return DONE;
    this.tickets.delete(id);
    this.dropped(held);
    return DONE;
  }

  removeDescendants(tgtId: string): Promise<number> {
    const ids = this.descendants.get(tgtId);
    if (ids === undefined) return Promise.resolve(0);
    this.descendants.delete(tgtId);
    const now = this.clock.now();
    let live = 0;
    for (const id of ids) {
      const descendant = this.tickets.get(id);
      if (descendant !== undefined && descendant.expiresAt > now) live += 1;
      this.tickets.delete(id);
    }
    return Promise.resolve(live);
  }

  /** Deletes every expired ticket; returns how many. */
  sweep(): number {
    const now = this.clock.now();
    this.lastSweepAt = now;
    let removed = 0;
    for (const [id, held] of this.tickets) {
      if (held.expiresAt > now) continue;
      this.tickets.delete(id);
      this.dropped(held);
      removed += 1;
    }
    return removed;
  }

  /** Bookkeeping of a ticket taken out of `tickets`. */
  private dropped(held: Held): void {
    if (held instanceof HeldTgt) {
      this.tgtsHeld -= 1;
      this.release(held.shared);
    } else {
      this.unindex(held);
    }
  }

  /** A TGT saved again under its id replaces the one held (the TicketStore contract allows it). */
  private forget(held: Held | undefined): void {
    if (held === undefined) return;
    this.tickets.delete(held.id);
    this.dropped(held);
  }

  /** The shared entry equal to this authentication (all but its time), one more holder counted. */
  private share({ authenticatedAt: _time, ...authentication }: Authentication): SharedEntry {
    const entries = this.shared.get(authentication.principal.id);
    const found = entries?.find((entry) => sameJson(entry.authentication, authentication));
    if (found) {
      found.holders += 1;
      return found;
    }
    const entry: SharedEntry = { authentication, holders: 1 };
    if (entries) entries.push(entry);
    else this.shared.set(authentication.principal.id, [entry]);
    return entry;
  }

  private release(entry: SharedEntry): void {
    entry.holders -= 1;
    if (entry.holders > 0) return;
    const id = entry.authentication.principal.id;
    const rest = (this.shared.get(id) ?? []).filter((other) => other !== entry);
    if (rest.length === 0) this.shared.delete(id);
    else this.shared.set(id, rest);
  }

  /** true when a full store has room again after sweeping. */
  private makeRoom(): boolean {
    if (this.clock.now() - this.lastSweepAt >= FULL_SWEEP_INTERVAL_MS) this.sweep();
    return this.tickets.size < this.maxTickets;
  }

  private index(descendant: DescendantTicket): void {
    const ids = this.descendants.get(descendant.tgtId);
    if (ids === undefined) this.descendants.set(descendant.tgtId, new Set([descendant.id]));
    else ids.add(descendant.id);
  }

  private unindex(descendant: DescendantTicket): void {
    const ids = this.descendants.get(descendant.tgtId);
    if (ids === undefined) return;
    ids.delete(descendant.id);
    if (ids.size === 0) this.descendants.delete(descendant.tgtId);
  }
}

/** Equality of JSON-like values (plain objects, arrays, strings, numbers, booleans, null), key order aside. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, index) => sameJson(item, b[index]));
  if (Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}
