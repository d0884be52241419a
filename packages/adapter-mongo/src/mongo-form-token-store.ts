import type { Collection } from 'mongodb';
import type { FormTokenStore } from '@tessera/core/modules/login';
import type { Guarded } from './unavailable.js';

/** A used login-form token; `_id` is its random `jti`. */
export interface FormTokenDocument {
  _id: string;
  /** Carries the TTL index: the token is expired by then, so its use need not be remembered. */
  expiresAt: Date;
}

const DUPLICATE_KEY = 11000;

/** Used login-form tokens in MongoDB, shared by every node: a claim is one insert, a second one a duplicate key. */
export class MongoFormTokenStore implements FormTokenStore {
  constructor(
    private readonly tokens: Collection<FormTokenDocument>,
    private readonly guarded: Guarded,
  ) {}

  async createIndexes(): Promise<void> {
    await this.guarded(() => this.tokens.createIndex({ expiresAt: 1 }, { name: 'expiresAt_ttl', expireAfterSeconds: 0 }));
  }

  async claim(tokenId: string, expiresAt: number): Promise<boolean> {
    try {
      await this.guarded(() => this.tokens.insertOne({ _id: tokenId, expiresAt: new Date(expiresAt) }));
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code === DUPLICATE_KEY) return false;
      throw error;
    }
  }
}
