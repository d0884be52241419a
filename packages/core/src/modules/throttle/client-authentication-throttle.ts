import { createHash } from 'node:crypto';
import { clientAddressGroup } from '../../domain/client-address.js';
import type { RequestOrigin } from '../../domain/events.js';
import type { Clock } from '../../ports/clock.js';
import type { EventSink } from '../../ports/event-sink.js';
import type { ClientThrottledEvent } from './events.js';
import { FailureLocks, type ThrottleSettings } from './failure-locks.js';
import type { ThrottleStore } from './throttle-store.js';

/** An OAuth client authenticating at a token endpoint: where from, and the `client_id` the request names. */
export interface ClientAuthenticationSubject {
  readonly origin: RequestOrigin;
  /** The `client_id` the request names, when a client of that id is registered; undefined when none is. */
  readonly clientId: string | undefined;
}

/** What to tell the throttle of an admitted client authentication once it is answered. */
export interface ClientAuthenticationOutcome {
  /** The client's secret or assertion was refused (`invalid_client`). */
  failed(): Promise<void>;
  /** The client's secret or assertion was accepted. */
  authenticated(): Promise<void>;
}

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

/** A key never seen, whose success has nothing to forget. */
const NOTHING_TO_FORGET = (): Promise<void> => Promise.resolve();

/**
 * Failed client authentications at the OAuth token endpoints (docs/protocol.md §5.5), counted and locked
 * as failed logins are (the same settings and store, keys of their own): `admit` before the client's
 * secret or assertion is looked at, which throws ThrottledError while the key is locked; then the
 * outcome's `failed` for an `invalid_client` answer, `authenticated` for an accepted client. A success
 * forgets only a key that had state when it was admitted, so a client that never failed costs one
 * lookup of its key per request and no write.
 */
export class ClientAuthenticationThrottle {
  private readonly locks: FailureLocks;

  constructor(
    store: ThrottleStore,
    clock: Clock,
    settings: ThrottleSettings,
    private readonly events: EventSink,
  ) {
    this.locks = new FailureLocks(store, clock, settings);
  }

  async admit(subject: ClientAuthenticationSubject): Promise<ClientAuthenticationOutcome> {
    const key = clientThrottleKey(subject.origin.clientAddress, subject.clientId);
    const state = await this.locks.check(key);
    return {
      failed: async () => {
        const lock = await this.locks.failed(key);
        const { clientId } = subject;
        if (lock) this.events.emit({ type: 'client.throttled', key, ...(clientId !== undefined && { client: clientId }), ...lock } satisfies ClientThrottledEvent, subject.origin);
      },
      authenticated: state === undefined ? NOTHING_TO_FORGET : () => this.locks.reset(key),
    };
  }
}
