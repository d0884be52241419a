/** The throttle module's event (docs/protocol.md §5): a key reached the failure threshold and is locked. */
export type AuthenticationThrottledEvent = {
  readonly type: 'authentication.throttled';
  /** The client's address group (an IPv6 address's /64) + username the lock is on. */
  readonly key: string;
  /** The lower-cased username of the key, when the requests named one. */
  readonly username?: string;
  readonly lockSeconds: number;
  readonly failures: number;
};
