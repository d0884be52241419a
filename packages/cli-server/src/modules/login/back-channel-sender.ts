import PQueue from 'p-queue';
import { ticketFingerprint, type EventSink } from '@tessera/core';
import type { LogoutDelivery, LogoutRequestDeliveredEvent, LogoutRequestFailedEvent, LogoutRequestSender } from '@tessera/core/modules/login';
import type { LoginConfig } from './config.js';

type Settings = LoginConfig['singleLogout'];

/**
 * Answers that count as delivered, as Apereo CAS's HTTP client accepts them: a client such as
 * mod_auth_cas drops the session, then redirects the (unauthenticated) POST to the login page.
 */
const DELIVERED = new Set([301, 302, 304]);

/** One attempt's failure, as the event reports it. */
type AttemptFailure = `HTTP ${number}` | 'timeout' | 'unreachable' | 'stopping';

/**
 * CAS back-channel logout over HTTP: `POST <url>` with the form parameter `logoutRequest`, each
 * attempt bounded by `timeoutMs`, up to `attempts` attempts with a doubling delay, redirects not
 * followed (a 2xx, 301, 302 or 304 is delivered). Every attempt waits its turn in one queue of this
 * node, at most `concurrency` of them in flight (a delivery waiting for its retry holds no place), so
 * however many sessions end at once the services see a bounded number of requests. Runs apart from
 * the request that ended the session; each request's outcome becomes one event
 * (`logout.request.delivered` or `logout.request.failed`) carrying that request's origin.
 */
export class HttpLogoutRequestSender implements LogoutRequestSender {
  private readonly pending = new Set<AbortController>();
  private readonly turns: PQueue;
  private stopped = false;

  constructor(
    private readonly settings: Settings,
    private readonly events: EventSink,
  ) {
    this.turns = new PQueue({ concurrency: settings.concurrency });
  }

  send(delivery: LogoutDelivery): void {
    void this.deliver(delivery);
  }

  /** Deliveries in progress: waiting for their turn, in flight, or waiting for their next retry. */
  get inProgress(): number {
    return this.pending.size;
  }

  /** Attempts waiting for their turn. */
  get waiting(): number {
    return this.turns.size;
  }

  /** Resolves once fewer than `count` attempts wait for their turn (at once after `stop`). */
  async fewerWaitingThan(count: number): Promise<void> {
    await this.turns.onSizeLessThan(count);
  }

  /** Ends every delivery now: attempts waiting or in flight are aborted and no retry follows; each is reported failed. */
  stop(): void {
    this.stopped = true;
    for (const delivery of this.pending) delivery.abort();
  }

  private async deliver(delivery: LogoutDelivery): Promise<void> {
    const controller = new AbortController();
    this.pending.add(controller);
    let attempts = 0;
    let failure: AttemptFailure | undefined = 'stopping';
    try {
      while (!this.stopped && attempts < this.settings.attempts) {
        if (attempts > 0) await pause(this.settings.retryDelayMs * 2 ** (attempts - 1), controller.signal);
        if (this.stopped) break;
        failure = await this.inTurn(() => {
          attempts += 1;
          return this.attempt(delivery, controller.signal);
        }, controller.signal);
        if (failure === undefined) break;
      }
    } finally {
      this.pending.delete(controller);
    }
    this.report(delivery, attempts, this.stopped && failure !== undefined ? 'stopping' : failure);
  }

  /** Runs `attempt` once one of the `concurrency` places is free; `stopping` when aborted first. */
  private async inTurn(attempt: () => Promise<AttemptFailure | undefined>, stopping: AbortSignal): Promise<AttemptFailure | undefined> {
    try {
      return await this.turns.add(attempt, { signal: stopping });
    } catch {
      // Aborted while it waited (p-queue rejects with the signal's reason); `attempt` itself never throws.
      return 'stopping';
    }
  }

  private async attempt({ url, logoutRequest }: LogoutDelivery, stopping: AbortSignal): Promise<AttemptFailure | undefined> {
    const timeout = AbortSignal.timeout(this.settings.timeoutMs);
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ logoutRequest }).toString(),
        redirect: 'manual',
        signal: AbortSignal.any([timeout, stopping]),
      });
      await response.body?.cancel();
      return (response.status >= 200 && response.status < 300) || DELIVERED.has(response.status) ? undefined : `HTTP ${response.status}`;
    } catch {
      if (stopping.aborted) return 'stopping';
      return timeout.aborted ? 'timeout' : 'unreachable';
    }
  }

  private report({ session, trigger, origin }: LogoutDelivery, attempts: number, failure: AttemptFailure | undefined): void {
    const about = { service: session.service, ticket: ticketFingerprint(session.ticketId), principal: session.principal, trigger, attempts };
    if (failure === undefined) this.events.emit({ type: 'logout.request.delivered', ...about } satisfies LogoutRequestDeliveredEvent, origin);
    else this.events.emit({ type: 'logout.request.failed', ...about, reason: failure } satisfies LogoutRequestFailedEvent, origin);
  }
}

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
