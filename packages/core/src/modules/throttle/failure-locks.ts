import { ThrottledError } from '../../domain/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { ThrottleStore } from './throttle-store.js';

export interface ThrottleSettings {
  /** Attempts within `rangeSeconds` that may be checked; that many failed lock the key. */
  readonly threshold: number;
  readonly rangeSeconds: number;
  /** First lock; each further lock without a success in between doubles it. */
  readonly lockSeconds: number;
  readonly maxLockSeconds: number;
}

/** A lock a failure just put on its key: its length and the attempts that reached the threshold. */
export interface NewLock {
  readonly lockSeconds: number;
  readonly failures: number;
}

/** An attempt counted on its key: the window it was counted in, to give it back if its credential is never checked. */
export interface AdmittedAttempt {
  readonly key: string;
  readonly windowEndsAt: number;
}

/**
 * The attempt count and lock of docs/protocol.md §5 on one key, whatever the key stands for (a client
 * address and username, a client address and OAuth client): the policy both throttles share. An attempt
 * is counted before its credential is checked, in one atomic store step that also answers whether the
 * key is locked or its window full, so at most `threshold` credentials of a key are checked per window
 * however many requests arrive at once, on however many nodes. A failed attempt stays counted and locks
 * the key once the count has reached the threshold; a success forgets the key.
 */
export class FailureLocks {
  constructor(
    private readonly store: ThrottleStore,
    private readonly clock: Clock,
    private readonly settings: ThrottleSettings,
  ) {}

  /**
   * Counts an attempt on the key; throws ThrottledError, with the whole seconds to wait, while the key
   * is locked (until the lock ends) or its window already counts `threshold` attempts (until it ends:
   * those still being checked may lock it or free it before).
   */
  async admit(key: string): Promise<AdmittedAttempt> {
    const now = this.clock.now();
    const { threshold, rangeSeconds } = this.settings;
    const state = await this.store.countAttempt(key, now, rangeSeconds * 1000, threshold);
    if (state.lockedUntil > now) throw new ThrottledError(Math.ceil((state.lockedUntil - now) / 1000));
    if (!state.counted) throw new ThrottledError(Math.max(1, Math.ceil((state.windowEndsAt - now) / 1000)));
    return { key, windowEndsAt: state.windowEndsAt };
  }

  /** The attempt's credential was refused: it stays counted; the lock it put on the key, when the count reached the threshold. */
  async failed({ key }: AdmittedAttempt): Promise<NewLock | undefined> {
    const now = this.clock.now();
    const state = await this.store.get(key);
    const { threshold } = this.settings;
    if (state === undefined || state.windowEndsAt <= now || state.failures < threshold) return undefined;
    const lockSeconds = this.lockSeconds(state.locks);
    // Concurrent failures may all see the threshold: the store locks once and never extends a lock.
    return (await this.store.lock(key, now, now + lockSeconds * 1000, threshold)) ? { lockSeconds, failures: state.failures } : undefined;
  }

  /** The attempt was answered without its credential being checked: it is given back. */
  unjudged({ key, windowEndsAt }: AdmittedAttempt): Promise<void> {
    return this.store.releaseAttempt(key, windowEndsAt);
  }

  /** Forgets the key's attempts, lock and lock count. */
  reset(key: string): Promise<void> {
    return this.store.reset(key);
  }

  /** lockSeconds doubled once per earlier lock, capped; the exponent is bounded so it never overflows. */
  private lockSeconds(earlierLocks: number): number {
    const { lockSeconds, maxLockSeconds } = this.settings;
    return Math.min(lockSeconds * 2 ** Math.min(earlierLocks, 52), maxLockSeconds);
  }
}
