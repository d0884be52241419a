import { type EventSink } from '@tessera/core';
import { EXPIRY_BATCH, type SingleLogout } from '@tessera/core/modules/login';
import type { HttpLogoutRequestSender } from './back-channel-sender.js';

/** Rounds of one check at most, so a backlog is worked off over several checks rather than in one burst. */
const MAX_ROUNDS = 50;

/** Attempts that may wait for their turn before a round starts: a backlog of expiries queues no more than a round past it. */
const MAX_WAITING = 1000;

/**
 * The login module's background work on each node: every `intervalSeconds`, the login sessions that
 * expired get their single logout (SingleLogout.endExpired), a round at a time while the sender's
 * queue is short; on stop, deliveries still running end.
 */
export class SingleLogoutJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopping = false;

  constructor(
    private readonly singleLogout: SingleLogout,
    private readonly sender: HttpLogoutRequestSender,
    private readonly intervalSeconds: number,
    private readonly events: EventSink,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.check(), this.intervalSeconds * 1000).unref();
  }

  /** One expiry check; a check already running is not started twice. */
  check(): Promise<void> {
    this.running ??= this.endExpired().finally(() => (this.running = undefined));
    return this.running;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.stopping = true;
    // First: a check waiting for the queue to shorten goes on once the deliveries are aborted.
    this.sender.stop();
    await this.running;
  }

  private async endExpired(): Promise<void> {
    try {
      for (let round = 0; round < MAX_ROUNDS && !this.stopping; round += 1) {
        await this.sender.fewerWaitingThan(MAX_WAITING);
        if (this.stopping) return;
        if ((await this.singleLogout.endExpired(EXPIRY_BATCH)) < EXPIRY_BATCH) return;
      }
    } catch (error) {
      // A store that cannot answer now is asked again at the next check.
      this.events.emit({ type: 'server.error', error: error instanceof Error ? error : new Error(String(error)), context: 'single logout: expiry check' });
    }
  }
}
