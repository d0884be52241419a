import type { RequestOrigin } from '../../domain/events.js';
import type { TicketGrantingTicket } from '../../domain/tickets/ticket.js';
import type { Clock } from '../../ports/clock.js';
import type { EventSink } from '../../ports/event-sink.js';
import type { SessionListener } from '../../ports/session-listener.js';
import { delegatedLoginKeyOf } from './credential.js';
import type { DelegationProvider } from './delegated-login.js';
import type { DelegationLogoutEvent, DelegationLogoutFailedEvent } from './events.js';
import type { DelegationRecords, KeptUpstreamSession, LeftLogout } from './login-states.js';
import { UpstreamFailure, type PostedForm } from './upstream.js';

/**
 * The upstream's logout after tessera's (docs/modules/delegation.md): a login through a provider with
 * `logout` keeps what the upstream's logout needs (DelegatedLogin, under the login's key); the session
 * it makes takes it over (`started`, as long as the session may live) and drops it when it ends
 * (`ended`). A browser logging out of such a session at /logout is sent, once tessera's logout is done,
 * to the upstream's logout, which sends it back with a state (`leave`, `back`). A failure on the way
 * (the store, the upstream down) is reported and leaves the browser on tessera's logged-out page: the
 * session has ended by then whatever happens upstream.
 */
export class UpstreamLogout implements SessionListener {
  constructor(
    private readonly providers: ReadonlyMap<string, DelegationProvider>,
    private readonly records: DelegationRecords,
    private readonly clock: Clock,
    private readonly events: EventSink,
    /** How long a browser may stay upstream before it comes back, in seconds (`delegation.stateSeconds`). */
    private readonly stateSeconds: number,
  ) {}

  validated(): Promise<void> {
    return Promise.resolve();
  }

  /** A new session: when a delegated login made it, what that login kept for the upstream's logout is the session's from now on. */
  async started(tgt: TicketGrantingTicket): Promise<void> {
    const loginKey = delegatedLoginKeyOf(tgt.authentication.credentials);
    const kept = loginKey === undefined ? undefined : await this.records.takeLogin(loginKey);
    if (kept !== undefined) await this.records.keepSession(tgt.id, kept, tgt.hardExpiresAt);
  }

  async ended(tgtId: string): Promise<void> {
    await this.records.forgetSession(tgtId);
  }

  /**
   * Asked before the session `tgtId` ends at /logout: what it keeps for the logout of a provider that
   * has `logout` on; undefined for any other session, or when the store fails (reported).
   */
  async keptFor(tgtId: string, origin?: RequestOrigin): Promise<KeptUpstreamSession | undefined> {
    try {
      const kept = await this.records.session(tgtId);
      return kept !== undefined && this.providers.get(kept.provider)?.logout === true ? kept : undefined;
    } catch (error) {
      this.failed(undefined, error, origin);
      return undefined;
    }
  }

  /**
   * Once tessera's logout is done: the URL of the upstream's logout, coming back to `returnUrl` with a
   * fresh state that keeps `next` (the service the logout goes on to); undefined when the upstream has
   * no logout, or it failed (reported). Never throws.
   */
  async leave(kept: KeptUpstreamSession, next: string | undefined, returnUrl: string, origin?: RequestOrigin): Promise<string | undefined> {
    const upstream = this.providers.get(kept.provider)?.upstream;
    if (upstream?.logoutUrl === undefined) return undefined;
    try {
      const state = this.records.randomValue();
      const url = await upstream.logoutUrl(kept.session, returnUrl, state);
      if (url === undefined) return undefined;
      await this.records.leaveForLogout(state, { provider: kept.provider, ...(next !== undefined && { service: next }) }, this.clock.now() + this.stateSeconds * 1000);
      this.events.emit({ type: 'delegation.logout', provider: kept.provider } satisfies DelegationLogoutEvent, origin);
      return url;
    } catch (error) {
      this.failed(kept.provider, error, origin);
      return undefined;
    }
  }

  /**
   * The browser back from the upstream's logout with `state`: where its logout goes on to; undefined
   * for none (or an unknown state). An upstream that answers with a message of its own (`answer`, at
   * `returnUrl`) must confirm the logout with it: when it does not, the logout is `unconfirmed`
   * (reported), tessera's own having ended the session all the same.
   */
  async back(state: string, origin?: RequestOrigin, answer?: { readonly url: URL; readonly returnUrl: string; readonly form?: PostedForm }): Promise<(LeftLogout & { readonly unconfirmed?: true }) | undefined> {
    let left: LeftLogout | undefined;
    try {
      left = await this.records.takeLogout(state);
    } catch (error) {
      this.failed(undefined, error, origin);
      return undefined;
    }
    const upstream = left === undefined ? undefined : this.providers.get(left.provider)?.upstream;
    if (left === undefined || upstream?.confirmLogout === undefined) return left;
    try {
      if (answer === undefined) throw new Error('the upstream sent no answer to its logout');
      await upstream.confirmLogout(answer.url, state, answer.returnUrl, answer.form);
      return left;
    } catch (error) {
      this.failed(left.provider, error, origin, 'the upstream did not confirm the logout: ');
      return { ...left, unconfirmed: true };
    }
  }

  private failed(provider: string | undefined, error: unknown, origin?: RequestOrigin, prefix = ''): void {
    const detail = `${prefix}${error instanceof UpstreamFailure ? error.detail : error instanceof Error ? error.message : String(error)}`.slice(0, 200);
    this.events.emit({ type: 'delegation.logout.failed', ...(provider !== undefined && { provider }), detail } satisfies DelegationLogoutFailedEvent, origin);
  }
}
