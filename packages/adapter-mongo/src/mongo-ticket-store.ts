import type { Collection } from 'mongodb';
import type { Authentication, Clock, LiveTgtCount, Ticket, TicketGrantingTicket, TicketStore, ValidatableTicket } from '@tessera/core';
import {
  fromTgtDocument,
  fromTicketDocument,
  fromValidatableDocument,
  toAuthenticationDocument,
  toTicketDocument,
  type PtDocument,
  type StDocument,
  type TgtDocument,
  type TicketDocument,
} from './ticket-documents.js';
import type { Guarded } from './unavailable.js';

/**
 * Tickets in MongoDB, shared by every node. Each read filters `expiresAt > now` itself: the TTL index
 * only collects garbage, and may lag a minute or more. Consume and touch are single atomic commands,
 * so concurrent nodes never both win.
 */
export class MongoTicketStore implements TicketStore, LiveTgtCount {
  constructor(
    private readonly tickets: Collection<TicketDocument>,
    private readonly clock: Clock,
    private readonly guarded: Guarded,
  ) {}

  /** Idempotent: creating an index that exists with the same options does nothing. */
  async createIndexes(): Promise<void> {
    await this.guarded(() => this.tickets.createIndex({ expiresAt: 1 }, { name: 'expiresAt_ttl', expireAfterSeconds: 0 }));
    await this.guarded(() => this.tickets.createIndex({ tgtId: 1 }, { name: 'tgtId', sparse: true }));
    await this.guarded(() => this.tickets.createIndex({ kind: 1, expiresAt: 1 }, { name: 'kind_expiresAt' }));
  }

  /**
   * Exact at the moment of the count, for the whole cluster (every node shares the collection). The
   * kind_expiresAt index answers it: one index range of the live TGTs, no document read.
   */
  liveTgts(): Promise<number> {
    return this.guarded(() => this.tickets.countDocuments({ kind: 'TGT', expiresAt: { $gt: this.now() } }));
  }

  async save(ticket: Ticket): Promise<void> {
    await this.guarded(() => this.tickets.insertOne(toTicketDocument(ticket)));
  }

  async get(id: string): Promise<Ticket | undefined> {
    const found = await this.guarded(() => this.tickets.findOne({ _id: id, expiresAt: { $gt: this.now() } }));
    return found === null ? undefined : fromTicketDocument(found);
  }

  /**
   * A ticket of one use (or at its last) is deleted in one step, a ticket of more takes one use in one
   * step. Uses only go down, so delete, take a use, delete again is every case: a single-use ticket
   * costs the one round trip it always did, a use of a multi-use one two, an unknown ticket three.
   */
  async consume(id: string): Promise<ValidatableTicket | undefined> {
    const live = { _id: id, kind: { $in: ['ST', 'PT'] as ('ST' | 'PT')[] }, expiresAt: { $gt: this.now() } };
    const last = () => this.guarded(() => this.tickets.findOneAndDelete({ ...live, usesLeft: { $not: { $gt: 1 } } }));
    const consumed =
      (await last()) ??
      (await this.guarded(() => this.tickets.findOneAndUpdate({ ...live, usesLeft: { $gt: 1 } }, { $inc: { usesLeft: -1 } }, { returnDocument: 'before' }))) ??
      (await last());
    return consumed === null ? undefined : fromValidatableDocument(consumed as StDocument | PtDocument);
  }

  async touch(tgtId: string, expiresAt: number): Promise<TicketGrantingTicket | undefined> {
    const now = this.now();
    const touched = await this.guarded(() =>
      this.tickets.findOneAndUpdate(
        { _id: tgtId, kind: 'TGT', expiresAt: { $gt: now }, hardExpiresAt: { $gt: now } },
        { $inc: { servicesGranted: 1 }, $set: { expiresAt: new Date(expiresAt) } },
        { returnDocument: 'after' },
      ),
    );
    return touched === null ? undefined : fromTgtDocument(touched as TgtDocument);
  }

  async updateAuthentication(tgt: TicketGrantingTicket, authentication: Authentication): Promise<TicketGrantingTicket | undefined> {
    const now = this.now();
    const updated = await this.guarded(() =>
      this.tickets.findOneAndUpdate(
        { _id: tgt.id, kind: 'TGT', expiresAt: { $gt: now }, hardExpiresAt: { $gt: now } },
        { $set: { authentication: toAuthenticationDocument(authentication) } },
        { returnDocument: 'after' },
      ),
    );
    return updated === null ? undefined : fromTgtDocument(updated as TgtDocument);
  }

  async remove(id: string): Promise<void> {
    await this.guarded(() => this.tickets.deleteOne({ _id: id }));
  }

  /** Counts the live descendants it removes (the contract's number), then clears expired leftovers too. */
  async removeDescendants(tgtId: string): Promise<number> {
    const live = await this.guarded(() => this.tickets.deleteMany({ tgtId, expiresAt: { $gt: this.now() } }));
    await this.guarded(() => this.tickets.deleteMany({ tgtId }));
    return live.deletedCount;
  }

  private now(): Date {
    return new Date(this.clock.now());
  }
}
