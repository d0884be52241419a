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

/** The throttle module's event (docs/protocol.md §5.5): an address and OAuth client reached the failure threshold at the token endpoints and are locked. */
export type ClientThrottledEvent = {
  readonly type: 'client.throttled';
  /** `client`, the client's address group (an IPv6 address's /64) and the client_id the lock is on; `unknown-client` and the group for ids no client has. */
  readonly key: string;
  /** The registered client_id the failed requests named; none for ids no client has. */
  readonly client?: string;
  readonly lockSeconds: number;
  readonly failures: number;
};
