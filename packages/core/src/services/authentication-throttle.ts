import { ThrottledError } from '../domain/errors.js';
import type { Clock } from '../ports/clock.js';
import type { EventSink } from '../ports/event-sink.js';
import type { ThrottleStore } from '../ports/throttle-store.js';

export interface ThrottleSettings {
  /** Failures within `rangeSeconds` that lock the key. */
  readonly threshold: number;
  readonly rangeSeconds: number;
  /** First lock; each further lock without a success in between doubles it. */
  readonly lockSeconds: number;
  readonly maxLockSeconds: number;
}

/** The throttle key of protocol.md §5: the client IP, plus the lower-cased username when one was sent. */
export function throttleKey(clientIp: string, username?: string): string {
  const name = username?.trim().toLowerCase();
  return name ? `${clientIp} ${name}` : clientIp;
}

/**
 * The throttle module's decisions (protocol.md §5). The caller asks `check` before any credential is
 * looked at, so a locked key costs no password hash, then reports the outcome: `failed` for a 401,
 * `succeeded` for a success. Other outcomes are reported to neither.
 */
export class AuthenticationThrottle {
  constructor(
    private readonly store: ThrottleStore,
    private readonly clock: Clock,
    private readonly settings: ThrottleSettings,
    private readonly events: EventSink,
  ) {}

  /** Throws ThrottledError, with the whole seconds left, while the key is locked. */
  async check(key: string): Promise<void> {
    const state = await this.store.get(key);
    const now = this.clock.now();
    if (state && state.lockedUntil > now) throw new ThrottledError(Math.ceil((state.lockedUntil - now) / 1000));
  }

  async failed(key: string): Promise<void> {
    const now = this.clock.now();
    const failures = await this.store.recordFailure(key, now, this.settings.rangeSeconds * 1000);
    if (failures < this.settings.threshold) return;
    const locks = (await this.store.get(key))?.locks ?? 0;
    const lockSeconds = this.lockSeconds(locks);
    // Concurrent failures may all reach the threshold: the store locks once and never extends a lock.
    if (await this.store.lock(key, now, now + lockSeconds * 1000)) {
      this.events.emit({ type: 'authentication.throttled', key, lockSeconds, failures });
    }
  }

  succeeded(key: string): Promise<void> {
    return this.store.reset(key);
  }

  /** lockSeconds doubled once per earlier lock, capped; the exponent is bounded so it never overflows. */
  private lockSeconds(earlierLocks: number): number {
    const { lockSeconds, maxLockSeconds } = this.settings;
    return Math.min(lockSeconds * 2 ** Math.min(earlierLocks, 52), maxLockSeconds);
  }
}
