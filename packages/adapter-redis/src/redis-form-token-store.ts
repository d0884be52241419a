import type { Clock } from '@tessera/core';
import type { FormTokenStore } from '@tessera/core/modules/login';
import type { RedisKeys } from './keys.js';
import type { RedisClient } from './scripts.js';
import { guarded } from './unavailable.js';

/**
 * Used login-form tokens in Redis, shared by every node: one `SET NX` per claim, so of concurrent
 * claims on any nodes exactly one creates the key. The key lives until the token's own expiry (by
 * this node's clock), after which the token is refused as expired anyway.
 */
export class RedisFormTokenStore implements FormTokenStore {
  constructor(
    private readonly client: RedisClient,
    private readonly keys: RedisKeys,
    private readonly clock: Clock,
  ) {}

  async claim(tokenId: string, expiresAt: number): Promise<boolean> {
    const ttlMs = Math.max(1, expiresAt - this.clock.now());
    const created = await guarded(() => this.client.set(this.keys.formToken(tokenId), '1', 'PX', ttlMs, 'NX'));
    return created === 'OK';
  }
}
