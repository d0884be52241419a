import { StoreUnavailableError, type ReadinessCheck } from '@tessera/core';
import type { MongoDatabase } from './mongo-stores.js';
import { guarded } from './unavailable.js';

/**
 * Storage readiness on MongoDB: a `ping`, the cheapest command a server answers, aborted after
 * `timeoutMs` (the driver's server selection is bounded by the same timeout at connect). A lost
 * database fails as StoreUnavailableError, like every other operation of the adapter.
 */
export class MongoReadinessCheck implements ReadinessCheck {
  readonly name = 'storage';

  constructor(
    private readonly database: MongoDatabase,
    private readonly timeoutMs: number,
  ) {}

  async check(): Promise<void> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      await guarded(() => this.database.command({ ping: 1 }, { signal }));
    } catch (error) {
      if (!signal.aborted) throw error;
      throw new StoreUnavailableError(`MongoDB did not answer a ping within ${this.timeoutMs} ms`, { cause: error });
    }
  }
}
