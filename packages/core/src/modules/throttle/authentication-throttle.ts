import type { Authentication } from '../../domain/authentication/authentication.js';
import { clientAddressGroup } from '../../domain/client-address.js';
import type { CredentialType } from '../../domain/authentication/credential.js';
import type { RequestOrigin } from '../../domain/events.js';
import type { AuthenticationListener } from '../../ports/authentication-listener.js';
import type { Clock } from '../../ports/clock.js';
import type { EventSink } from '../../ports/event-sink.js';
import type { AuthenticationThrottledEvent } from './events.js';
import { FailureLocks, type ThrottleSettings } from './failure-locks.js';
import type { ThrottleStore } from './throttle-store.js';

/** Whose failures are counted together (docs/protocol.md §5): the request's client address (an IPv6 one by its /64), and the username it sent if any. */
export interface ThrottleSubject {
  readonly origin: RequestOrigin;
  readonly username?: string | undefined;
}

/**
 * The throttle key of docs/protocol.md §5: the client's address group (an IPv6 address's /64 network,
 * `clientAddressGroup`), plus the lower-cased username when one was sent.
 */
export function throttleKey(clientAddress: string, username?: string): string {
  const client = clientAddressGroup(clientAddress);
  const name = normalizedUsername(username);
  return name ? `${client} ${name}` : client;
}


function normalizedUsername(username: string | undefined): string | undefined {
  return username?.trim().toLowerCase() || undefined;
}

/**
 * The throttle module's decisions (docs/protocol.md §5). The caller asks `check` before any credential is
 * looked at, so a locked key costs no password hash, and reports a 401 as `failed`. A success is told by
 * the Authenticator itself (`authenticated`, as its listener), with the credentials it accepted: it
 * forgets only the keys of the usernames they proved, never the key a request merely named.
 */
export class AuthenticationThrottle implements AuthenticationListener {
  private readonly usernameKinds: ReadonlySet<CredentialType>;
  private readonly locks: FailureLocks;

  constructor(
    store: ThrottleStore,
    clock: Clock,
    settings: ThrottleSettings,
    private readonly events: EventSink,
    /** The credential kinds whose shown id is the username they prove (a password, a one-time code), as their makers declare. */
    usernameKinds: Iterable<CredentialType>,
  ) {
    this.locks = new FailureLocks(store, clock, settings);
    this.usernameKinds = new Set(usernameKinds);
  }

  /** Throws ThrottledError, with the whole seconds left, while the subject's key is locked. */
  async check(subject: ThrottleSubject): Promise<void> {
    await this.locks.check(keyOf(subject));
  }

  async failed(subject: ThrottleSubject): Promise<void> {
    const key = keyOf(subject);
    const lock = await this.locks.failed(key);
    if (lock) {
      const username = normalizedUsername(subject.username);
      this.events.emit({ type: 'authentication.throttled', key, ...(username && { username }), ...lock } satisfies AuthenticationThrottledEvent, subject.origin);
    }
  }

  /**
   * Forgets the key of each username a credential of this authentication proved (a password or a
   * one-time code: they were all accepted), or, when none carried a username, the address's own key.
   * A principal proved otherwise (a certificate) never clears the key of a username sent beside it.
   */
  async authenticated(authentication: Authentication, origin?: RequestOrigin): Promise<void> {
    if (origin === undefined) return;
    const usernames = authentication.credentials.filter(({ type }) => this.usernameKinds.has(type)).map(({ id }) => id);
    const keys = new Set(usernames.length === 0 ? [throttleKey(origin.clientAddress)] : usernames.map((username) => throttleKey(origin.clientAddress, username)));
    for (const key of keys) await this.locks.reset(key);
  }
}

function keyOf({ origin, username }: ThrottleSubject): string {
  return throttleKey(origin.clientAddress, username);
}
