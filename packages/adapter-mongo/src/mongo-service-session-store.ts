import type { Collection } from 'mongodb';
import type { ServiceSession, ServiceSessionStore } from '@tessera/core/modules/login';
import type { Guarded } from './unavailable.js';

/** A TGT's single-logout record; `_id` is the TGT id. */
export interface ServiceSessionDocument {
  _id: string;
  sessions: ServiceSession[];
  /** Before this the TGT cannot have expired; the `checkAt` index serves the expiry check. */
  checkAt: Date;
}

const DUPLICATE_KEY = 11000;
const ATTEMPTS = 3;

/**
 * Single-logout records in MongoDB, shared by every node: adds are one upsert ($push with $slice, $max),
 * take is one findOneAndDelete, so of the nodes noticing a TGT's end at once exactly one tells its services.
 */
export class MongoServiceSessionStore implements ServiceSessionStore {
  constructor(
    private readonly records: Collection<ServiceSessionDocument>,
    private readonly guarded: Guarded,
  ) {}

  async createIndexes(): Promise<void> {
    await this.guarded(() => this.records.createIndex({ checkAt: 1 }, { name: 'checkAt' }));
  }

  async add(tgtId: string, session: ServiceSession, checkAt: number, limit: number): Promise<readonly ServiceSession[]> {
    const { ticketId, service, principal } = session;
    // $slice keeps the newest `limit` in the same step; the document before it tells which were dropped.
    const change = { $push: { sessions: { $each: [{ ticketId, service, principal }], $slice: -limit } }, $max: { checkAt: new Date(checkAt) } };
    for (let attempt = 1; ; attempt += 1) {
      try {
        const before = await this.guarded(() => this.records.findOneAndUpdate({ _id: tgtId }, change, { upsert: true, returnDocument: 'before' }));
        const held = before?.sessions ?? [];
        return sessionsOf(held.slice(0, Math.max(0, held.length + 1 - limit)));
      } catch (error) {
        // Two first adds raced to insert the record: the loser updates the winner's.
        if ((error as { code?: unknown }).code !== DUPLICATE_KEY || attempt >= ATTEMPTS) throw error;
      }
    }
  }

  async take(tgtId: string): Promise<readonly ServiceSession[]> {
    const taken = await this.guarded(() => this.records.findOneAndDelete({ _id: tgtId }));
    return sessionsOf(taken?.sessions ?? []);
  }

  async due(now: number, limit: number): Promise<readonly string[]> {
    const found = await this.guarded(() =>
      this.records
        .find({ checkAt: { $lte: new Date(now) } })
        .sort({ checkAt: 1 })
        .limit(limit)
        .toArray(),
    );
    return found.map((record) => record._id);
  }

  async postpone(tgtId: string, checkAt: number): Promise<void> {
    await this.guarded(() => this.records.findOneAndUpdate({ _id: tgtId }, { $max: { checkAt: new Date(checkAt) } }));
  }
}

/** The sessions as the port gives them, without any other field a document may hold. */
function sessionsOf(stored: readonly ServiceSession[]): ServiceSession[] {
  return stored.map(({ ticketId, service, principal }) => ({ ticketId, service, principal }));
}
