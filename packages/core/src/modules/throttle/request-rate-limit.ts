import { RateLimitedError } from '../../domain/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { RequestRateStore } from './request-rate-store.js';

export interface RequestRateSettings {
  /** Requests a client may make at once after a quiet period. */
  readonly burst: number;
  /** Sustained requests per second per client. */
  readonly requestsPerSecond: number;
}

/** The optional request-rate limit per client IP of docs/protocol.md §5, for the validation endpoints. */
export class RequestRateLimit {
  constructor(
    private readonly store: RequestRateStore,
    private readonly clock: Clock,
    private readonly settings: RequestRateSettings,
  ) {}

  /** Throws RateLimitedError, with the whole seconds to wait, when the client has no token left. */
  async admit(clientIp: string): Promise<void> {
    const { burst, requestsPerSecond } = this.settings;
    const waitMs = await this.store.take(clientIp, this.clock.now(), burst, requestsPerSecond);
    if (waitMs > 0) throw new RateLimitedError(Math.max(1, Math.ceil(waitMs / 1000)));
  }
}
