/**
 * Counts authentication failures per key (client IP + lower-cased username) for the throttle module.
 * Shared by every node, so implementations update atomically.
 */
export interface ThrottleState {
  /** Failures counted in the current window. */
  readonly failures: number;
  /** Epoch ms until which the key is locked, or 0 when it is not. */
  readonly lockedUntil: number;
  /** How many times the key was locked since its last success; doubles the next lock. */
  readonly locks: number;
}

export interface ThrottleStore {
  get(key: string): Promise<ThrottleState | undefined>;

  /** Counts one failure in a window of `windowMs`; returns the state after counting. */
  recordFailure(key: string, windowMs: number): Promise<ThrottleState>;

  /** Locks the key until the given time and counts the lock. */
  lock(key: string, until: number): Promise<ThrottleState>;

  /** Forgets the key (after a success). */
  reset(key: string): Promise<void>;
}
