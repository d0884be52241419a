import type { Authentication } from '../../domain/authentication/authentication.js';
import { clientAddressGroup } from '../../domain/client-address.js';
import type { CredentialType } from '../../domain/authentication/credential.js';
import type { RequestOrigin } from '../../domain/events.js';
import type { AuthenticationListener } from '../../ports/authentication-listener.js';
import type { EventSink } from '../../ports/event-sink.js';
import type { AuthenticationThrottledEvent } from './events.js';
import type { AdmittedAttempt, FailureLocks } from './failure-locks.js';

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

/** A login attempt the throttle admitted: what to tell it once the request is answered, one of the two. */
export interface AuthenticationAttempt {
  /** Answered 401: the attempt counts as a failure, and locks the key once its failures reached the threshold. */
  failed(): Promise<void>;
  /** Answered otherwise: it leaves the attempts in flight, unless a success settled it already. */
  answered(): Promise<void>;
}

/**
 * The throttle module's decisions (docs/protocol.md §5). The caller asks `admit` before any credential is
 * looked at: it counts the attempt in flight, or refuses it while the key is locked, when the key has
 * failed and its failures plus attempts in flight reach `threshold`, or when `concurrentChecks` of it are
 * in flight; so a refused key costs no password hash, a user's own logins sent at once are all checked,
 * and guesses sent at once are bounded. A 401 is then reported as the attempt's `failed`.
 * A success is told by the Authenticator itself (`authenticated`, as its listener), with the credentials
 * it accepted: it forgets only the keys of the usernames they proved, never the key a request merely named.
 */
export class AuthenticationThrottle implements AuthenticationListener {
  private readonly usernameKinds: ReadonlySet<CredentialType>;
  /** Each request's admitted attempt, so its success settles it, and the keys that success forgot (its answer then settles nothing). */
  private readonly requests = new WeakMap<RequestOrigin, { readonly attempt: AdmittedAttempt; readonly forgotten: Set<string> }>();

  constructor(
    private readonly locks: FailureLocks,
    private readonly events: EventSink,
    /** The credential kinds whose shown id is the username they prove (a password, a one-time code), as their makers declare. */
    usernameKinds: Iterable<CredentialType>,
  ) {
    this.usernameKinds = new Set(usernameKinds);
  }

  /** Admits the attempt; throws ThrottledError, with the whole seconds to wait, when the subject's key is locked or refuses it. */
  async admit(subject: ThrottleSubject): Promise<AuthenticationAttempt> {
    const attempt = await this.locks.admit(keyOf(subject), 'bounded');
    const request = { attempt, forgotten: new Set<string>() };
    this.requests.set(subject.origin, request);
    return {
      failed: async () => {
        const lock = await this.locks.failed(attempt);
        if (lock) {
          const username = normalizedUsername(subject.username);
          this.events.emit({ type: 'authentication.throttled', key: attempt.key, ...(username && { username }), ...lock } satisfies AuthenticationThrottledEvent, subject.origin);
        }
      },
      answered: () => (request.forgotten.has(attempt.key) ? Promise.resolve() : this.locks.unjudged(attempt)),
    };
  }

  /**
   * Forgets the key of each username a credential of this authentication proved (a password or a
   * one-time code: they were all accepted), or, when none carried a username, the address's own key; the
   * request's own attempt, when it was on one of them, settles with it.
   * A principal proved otherwise (a certificate) never clears the key of a username sent beside it.
   */
  async authenticated(authentication: Authentication, origin?: RequestOrigin): Promise<void> {
    if (origin === undefined) return;
    const usernames = authentication.credentials.filter(({ type }) => this.usernameKinds.has(type)).map(({ id }) => id);
    const keys = new Set(usernames.length === 0 ? [throttleKey(origin.clientAddress)] : usernames.map((username) => throttleKey(origin.clientAddress, username)));
    const request = this.requests.get(origin);
    for (const key of keys) {
      // A request settles its attempt once: a second success on the same key forgets it without it.
      await this.locks.succeeded(key, request?.forgotten.has(key) ? undefined : request?.attempt);
      request?.forgotten.add(key);
    }
  }
}

function keyOf({ origin, username }: ThrottleSubject): string {
  return throttleKey(origin.clientAddress, username);
}
