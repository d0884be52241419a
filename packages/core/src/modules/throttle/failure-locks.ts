import { ThrottledError } from '../../domain/errors.js';
import type { Clock } from '../../ports/clock.js';
import { locksNow, type ThrottleStore } from './throttle-store.js';

/** A login key's checks in flight at once when the settings name none: above the workers of a busy REST client, far below a flood. */
export const DEFAULT_CONCURRENT_CHECKS = 32;

export interface ThrottleSettings {
  /** Failures within `rangeSeconds` that lock the key; a key with failures gets no more than this many checked or in flight there. */
  readonly threshold: number;
  readonly rangeSeconds: number;
  /** First lock; each further lock without a success in between doubles it. */
  readonly lockSeconds: number;
  readonly maxLockSeconds: number;
  /** A login key's credential checks in flight at once (raised to `threshold`); DEFAULT_CONCURRENT_CHECKS when absent. */
  readonly concurrentChecks?: number | undefined;
}

/** Whether a key's checks in flight at once are bounded: by `concurrentChecks` (logins), or not at all (clients' long secrets). */
export type ConcurrencyBound = 'bounded' | 'unbounded';

/** A lock a failure just put on its key: its length and the failures that reached the threshold. */
export interface NewLock {
  readonly lockSeconds: number;
  readonly failures: number;
}

/** An attempt admitted on its key: the window it was admitted in, where it settles. */
export interface AdmittedAttempt {
  readonly key: string;
  readonly windowEndsAt: number;
}

/**
 * The failures, attempts in flight and lock of docs/protocol.md §5 on one key, whatever the key stands
 * for (a client address and username, a client address and OAuth client): the policy both throttles
 * share. An attempt is admitted before its credential is checked, in one atomic store step, and refused
 * while the key is locked, or when the key has failed (failures in its window, or a lock since its last
 * success) and its failures plus attempts in flight reach `threshold`, or when its attempts in flight
 * reach the bound. So however many requests arrive at once, on however many nodes: a key without
 * failures has every right credential checked (up to the bound), a key with failures no more than
 * `threshold` checked or in flight per window. A failure locks the key once its window counts `threshold`;
 * a success forgets the key.
 */
export class FailureLocks {
  private readonly boundedInFlight: number;

  constructor(
    private readonly store: ThrottleStore,
    private readonly clock: Clock,
    private readonly settings: ThrottleSettings,
  ) {
    this.boundedInFlight = Math.max(settings.threshold, settings.concurrentChecks ?? DEFAULT_CONCURRENT_CHECKS);
  }

  /**
   * Admits an attempt on the key; throws ThrottledError, with the whole seconds to wait: while the key is
   * locked, until the lock ends; when its failures and attempts in flight reach the threshold, or its
   * attempts in flight the bound, 1: those in flight end within a check's time, and then lock the key (the
   * next try learns for how long) or free it (a success forgets the failures). Only failures alone at the
   * threshold without a lock wait for the window's end.
   */
  async admit(key: string, bound: ConcurrencyBound): Promise<AdmittedAttempt> {
    const now = this.clock.now();
    const { threshold, rangeSeconds } = this.settings;
    const inFlightCap = bound === 'bounded' ? this.boundedInFlight : Number.MAX_SAFE_INTEGER;
    const state = await this.store.admit(key, now, { windowMs: rangeSeconds * 1000, threshold, inFlightCap });
    if (state.lockedUntil > now) throw new ThrottledError(Math.ceil((state.lockedUntil - now) / 1000));
    if (!state.admitted) {
      const waitsForWindow = state.inFlight === 0 && state.failures >= threshold;
      throw new ThrottledError(waitsForWindow ? Math.max(1, Math.ceil((state.windowEndsAt - now) / 1000)) : 1);
    }
    return { key, windowEndsAt: state.windowEndsAt };
  }

  /** The attempt's credential was refused: it counts as a failure; the lock it put on the key, when the failures reached the threshold. */
  async failed({ key, windowEndsAt }: AdmittedAttempt): Promise<NewLock | undefined> {
    const state = await this.store.failed(key, windowEndsAt);
    const now = this.clock.now();
    const { threshold } = this.settings;
    if (state === undefined || !locksNow(state, now, threshold)) return undefined;
    const lockSeconds = this.lockSeconds(state.locks);
    // Concurrent failures may all see the threshold: the store locks once and never extends a lock.
    return (await this.store.lock(key, now, now + lockSeconds * 1000, threshold)) ? { lockSeconds, failures: state.failures } : undefined;
  }

  /** The attempt was answered without its credential being checked: it leaves the attempts in flight. */
  unjudged({ key, windowEndsAt }: AdmittedAttempt): Promise<void> {
    return this.store.unjudged(key, windowEndsAt);
  }

  /** A success on the key: its failures, lock and lock count forgotten, and the attempt (when it is the key's) out of flight. */
  succeeded(key: string, attempt?: AdmittedAttempt): Promise<void> {
    return this.store.forget(key, this.clock.now(), attempt?.key === key ? attempt.windowEndsAt : undefined);
  }

  /** lockSeconds doubled once per earlier lock, capped; the exponent is bounded so it never overflows. */
  private lockSeconds(earlierLocks: number): number {
    const { lockSeconds, maxLockSeconds } = this.settings;
    return Math.min(lockSeconds * 2 ** Math.min(earlierLocks, 52), maxLockSeconds);
  }
}
