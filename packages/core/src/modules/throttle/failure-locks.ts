import { ThrottledError } from '../../domain/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { ThrottleState, ThrottleStore } from './throttle-store.js';

export interface ThrottleSettings {
  /** Failures within `rangeSeconds` that lock the key. */
  readonly threshold: number;
  readonly rangeSeconds: number;
  /** First lock; each further lock without a success in between doubles it. */
  readonly lockSeconds: number;
  readonly maxLockSeconds: number;
}

/** A lock a failure just put on its key: its length and the failures that reached the threshold. */
export interface NewLock {
  readonly lockSeconds: number;
  readonly failures: number;
}

/**
 * The failure count and lock of docs/protocol.md §5 on one key, whatever the key stands for (a client
 * address and username, a client address and OAuth client): the policy both throttles share.
 */
export class FailureLocks {
  constructor(
    private readonly store: ThrottleStore,
    private readonly clock: Clock,
    private readonly settings: ThrottleSettings,
  ) {}

  /** Throws ThrottledError, with the whole seconds left, while the key is locked; else the key's state (undefined for a key never seen). */
  async check(key: string): Promise<ThrottleState | undefined> {
    const state = await this.store.get(key);
    const now = this.clock.now();
    if (state && state.lockedUntil > now) throw new ThrottledError(Math.ceil((state.lockedUntil - now) / 1000));
    return state;
  }

  /** Counts a failure of the key; the lock it put on the key, when it reached the threshold and locked it. */
  async failed(key: string): Promise<NewLock | undefined> {
    const now = this.clock.now();
    const failures = await this.store.recordFailure(key, now, this.settings.rangeSeconds * 1000);
    if (failures < this.settings.threshold) return undefined;
    const locks = (await this.store.get(key))?.locks ?? 0;
    const lockSeconds = this.lockSeconds(locks);
    // Concurrent failures may all reach the threshold: the store locks once and never extends a lock.
    return (await this.store.lock(key, now, now + lockSeconds * 1000)) ? { lockSeconds, failures } : undefined;
  }

  /** Forgets the key's failures, lock and lock count. */
  reset(key: string): Promise<void> {
    return this.store.reset(key);
  }

  /** lockSeconds doubled once per earlier lock, capped; the exponent is bounded so it never overflows. */
  private lockSeconds(earlierLocks: number): number {
    const { lockSeconds, maxLockSeconds } = this.settings;
    return Math.min(lockSeconds * 2 ** Math.min(earlierLocks, 52), maxLockSeconds);
  }
}
