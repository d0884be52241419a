import type { Collection, Document } from 'mongodb';
import type { Guarded } from './unavailable.js';

const DUPLICATE_KEY = 11000;

/** An insert (an upsert's among them) met a document of the same `_id`: another node wrote it first. */
export function isDuplicateKey(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === DUPLICATE_KEY;
}

/**
 * A collection of documents that expire, as the stores on MongoDB keep them: every command goes through
 * `guarded` (a database away or too slow is StoreUnavailableError), and a TTL index on `expiresAt`
 * removes a document `expireAfterSeconds` after it. The index only collects garbage: readers that must
 * never see an expired document compare `expiresAt` with their own clock.
 */
export class ExpiringCollection<T extends Document & { expiresAt: Date }> {
  constructor(
    private readonly collection: Collection<T>,
    private readonly guarded: Guarded,
    private readonly expireAfterSeconds = 0,
  ) {}

  /** Idempotent: creating an index that exists with the same options does nothing. */
  async createTtlIndex(): Promise<void> {
    await this.run((collection) => collection.createIndex({ expiresAt: 1 }, { name: 'expiresAt_ttl', expireAfterSeconds: this.expireAfterSeconds }));
  }

  /** One command on the collection, guarded. */
  run<R>(command: (collection: Collection<T>) => Promise<R>): Promise<R> {
    return this.guarded(() => command(this.collection));
  }
}
