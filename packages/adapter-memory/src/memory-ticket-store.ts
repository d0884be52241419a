import {
  InvalidConfigurationError,
  StoreCapacityExceededError,
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

/**
 * Tickets in one process's memory. Every method runs in one synchronous step, so consume and touch
 * are atomic without locks. Expired tickets are invisible at once and removed by `sweep`.
 */
export class MemoryTicketStore implements TicketStore, LiveTgtCount {
  private readonly tickets = new Map<string, Ticket>();
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
    this.tickets.set(ticket.id, ticket);
    if (ticket.kind === 'TGT') this.tgtsHeld += 1;
    else this.index(ticket);
    return DONE;
  }

  /** Exact for logins and logouts; a TGT that expired still counts until the next `sweep`. */
  liveTgts(): Promise<number> {
    return Promise.resolve(this.tgtsHeld);
  }

  get(id: string): Promise<Ticket | undefined> {
    const ticket = this.tickets.get(id);
    return ticket !== undefined && ticket.expiresAt > this.clock.now() ? Promise.resolve(ticket) : NOTHING;
  }

  consume(id: string): Promise<ValidatableTicket | undefined> {
    const ticket = this.tickets.get(id);
    if ((ticket?.kind !== 'ST' && ticket?.kind !== 'PT') || ticket.expiresAt <= this.clock.now()) return NOTHING;
    this.tickets.delete(id);
    this.unindex(ticket);
    return Promise.resolve(ticket);
  }

  touch(tgtId: string, expiresAt: number): Promise<TicketGrantingTicket | undefined> {
    const tgt = this.tickets.get(tgtId);
    if (tgt?.kind !== 'TGT' || tgt.expiresAt <= this.clock.now()) return NOTHING;
    const touched: TicketGrantingTicket = { ...tgt, expiresAt, servicesGranted: tgt.servicesGranted + 1 };
    this.tickets.set(tgtId, touched);
    return Promise.resolve(touched);
  }

  remove(id: string): Promise<void> {
    const ticket = this.tickets.get(id);
    if (ticket === undefined) return DONE;
    this.tickets.delete(id);
    this.forget(ticket);
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
    for (const [id, ticket] of this.tickets) {
      if (ticket.expiresAt > now) continue;
      this.tickets.delete(id);
      this.forget(ticket);
      removed += 1;
    }
    return removed;
  }

  /** true when a full store has room again after sweeping. */
  private makeRoom(): boolean {
    if (this.clock.now() - this.lastSweepAt >= FULL_SWEEP_INTERVAL_MS) this.sweep();
    return this.tickets.size < this.maxTickets;
  }

  /** The bookkeeping of a ticket just deleted from the map. */
  private forget(ticket: Ticket): void {
    if (ticket.kind === 'TGT') this.tgtsHeld -= 1;
    else this.unindex(ticket);
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
