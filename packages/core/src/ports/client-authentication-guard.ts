import type { RequestOrigin } from '../domain/events.js';

/** An OAuth client authenticating at a token endpoint: where from, and the `client_id` the request names. */
export interface ClientAuthenticationSubject {
  readonly origin: RequestOrigin;
  /** The `client_id` the request names, when a client of that id is registered; undefined when none is. */
  readonly clientId: string | undefined;
}

/** What a client authentication guard is told of a request it admitted, once answered: exactly one of these. */
export interface ClientAuthenticationOutcome {
  /** The client's secret or assertion was refused (`invalid_client`). */
  failed(): Promise<void>;
  /** The client's secret or assertion was accepted. */
  authenticated(): Promise<void>;
  /** The request was answered without the client's credentials being judged (a public client, a request refused first). */
  unjudged(): Promise<void>;
}

/**
 * A guard on the client authentication of an OAuth 2.0 / OpenID Connect provider's endpoints (the
 * throttle module's, docs/protocol.md §5.5). `admit` is asked once the named client was looked up and
 * before its secret or assertion is, once per request: it throws a core error to refuse the request
 * (a ThrottledError is answered 429 `invalid_client` with `Retry-After`), else resolves with what to
 * tell once the request is answered.
 */
export interface ClientAuthenticationGuard {
  admit(subject: ClientAuthenticationSubject): Promise<ClientAuthenticationOutcome>;
}
