import { RateLimitedError } from '../../domain/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { RequestRateStore } from './request-rate-store.js';

export interface RequestRateSettings {
  /** Requests a client may make at once after a quiet period. */
  readonly burst: number;
  /** Sustained requests per second per client. */
  readonly requestsPerSecond: number;
}

/**
 * A request-rate limit per client IP (docs/protocol.md §5.2, §5.3): the validation endpoints' and the
 * login form's. `scope` keeps a limit's buckets apart from the others' in the one store: the validation
 * limit's keys are the bare addresses, the login form's `<scope> <address>`.
 */
export class RequestRateLimit {
  constructor(
    private readonly store: RequestRateStore,
    private readonly clock: Clock,
    private readonly settings: RequestRateSettings,
    private readonly scope?: string,
  ) {}

  /** Throws RateLimitedError, with the whole seconds to wait, when the client has no token left. */
  async admit(clientIp: string): Promise<void> {
    const { burst, requestsPerSecond } = this.settings;
    const key = this.scope === undefined ? clientIp : `${this.scope} ${clientIp}`;
    const waitMs = await this.store.take(key, this.clock.now(), burst, requestsPerSecond);
    if (waitMs > 0) throw new RateLimitedError(Math.max(1, Math.ceil(waitMs / 1000)));
  }
}
