import { createHash } from 'node:crypto';
import { clientAddressGroup } from '../../domain/client-address.js';
import type { ClientAuthenticationGuard, ClientAuthenticationOutcome, ClientAuthenticationSubject } from '../../ports/client-authentication-guard.js';
import type { EventSink } from '../../ports/event-sink.js';
import type { ClientThrottledEvent } from './events.js';
import type { FailureLocks } from './failure-locks.js';

/** The longest `client_id` a key holds as sent; a longer one is keyed by its digest. */
const MAX_KEYED_CLIENT_ID = 256;

/**
 * The throttle key of a client authentication (docs/protocol.md §5.5): `client`, the client's address
 * group (an IPv6 address's /64 network) and the registered `client_id` as sent (client ids are
 * case-sensitive), past MAX_KEYED_CLIENT_ID characters its SHA-256. Ids no client has share one key
 * per address group, `unknown-client <group>`: made-up ids cost the store one key per address, so a
 * flood of them can neither fill it (which would lock every new key, everyone's) nor grow it. No
 * username key starts with `client ` or `unknown-client `: those start with an address.
 */
export function clientThrottleKey(clientAddress: string, clientId: string | undefined): string {
  if (clientId === undefined) return `unknown-client ${clientAddressGroup(clientAddress)}`;
  const keyed = clientId.length <= MAX_KEYED_CLIENT_ID ? clientId : `sha256:${createHash('sha256').update(clientId).digest('base64url')}`;
  return `client ${clientAddressGroup(clientAddress)} ${keyed}`;
}

/**
 * Client authentications at the OAuth token endpoints (docs/protocol.md §5.5), counted and locked as
 * logins are (the same settings and store, keys of their own): `admit` before the client's secret or
 * assertion is looked at counts the attempt in flight, or throws ThrottledError while the key is locked
 * or when it has failed and its failures plus attempts in flight reach `threshold`; then the outcome's
 * `failed` for an `invalid_client` answer (a failure), `authenticated` for an accepted client (its key
 * forgotten), `unjudged` for an answer given without judging the client (out of flight). A client's
 * checks in flight at once are not bounded: a busy relying party sends many token requests at once from
 * one address and must never be refused while it has no failure, and its secret (or key) is no password
 * a burst of guesses could find: the first failure bounds the rest by `threshold`.
 */
export class ClientAuthenticationThrottle implements ClientAuthenticationGuard {
  constructor(
    private readonly locks: FailureLocks,
    private readonly events: EventSink,
  ) {}

  async admit(subject: ClientAuthenticationSubject): Promise<ClientAuthenticationOutcome> {
    const attempt = await this.locks.admit(clientThrottleKey(subject.origin.clientAddress, subject.clientId), 'unbounded');
    return {
      failed: async () => {
        const lock = await this.locks.failed(attempt);
        const { clientId } = subject;
        if (lock) this.events.emit({ type: 'client.throttled', key: attempt.key, ...(clientId !== undefined && { client: clientId }), ...lock } satisfies ClientThrottledEvent, subject.origin);
      },
      authenticated: () => this.locks.succeeded(attempt.key, attempt),
      unjudged: () => this.locks.unjudged(attempt),
    };
  }
}
