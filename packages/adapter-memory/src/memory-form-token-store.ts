import { StoreCapacityExceededError, type Clock } from '@tessera/core';
import { type FormTokenStore } from '@tessera/core/modules/login';

export const DEFAULT_MAX_FORM_TOKENS = 1_000_000;

/**
 * Used login-form tokens in one process's memory, each until its expiry. Only a used token takes a
 * place (the form itself stores nothing); a full store first forgets expired ones, then refuses (503)
 * rather than forget a live one, which would let it be used again.
 */
export class MemoryFormTokenStore implements FormTokenStore {
  private readonly used = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    private readonly maxTokens = DEFAULT_MAX_FORM_TOKENS,
  ) {}

  get size(): number {
    return this.used.size;
  }

  claim(tokenId: string, expiresAt: number): Promise<boolean> {
    const now = this.clock.now();
    const known = this.used.get(tokenId);
    if (known !== undefined && known > now) return Promise.resolve(false);
    if (known === undefined && this.used.size >= this.maxTokens && this.forgetExpired(now) === 0) {
      return Promise.reject(new StoreCapacityExceededError(`The in-memory login form token store is full (${this.maxTokens} tokens in use)`));
    }
    this.used.set(tokenId, expiresAt);
    return Promise.resolve(true);
  }

  /** Forgets every token past its expiry; returns how many. */
  forgetExpired(now = this.clock.now()): number {
    let forgotten = 0;
    for (const [tokenId, expiresAt] of this.used) {
      if (expiresAt > now) continue;
      this.used.delete(tokenId);
      forgotten += 1;
    }
    return forgotten;
  }
}
