import { clientAddressGroup } from '../../domain/client-address.js';
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
 * A request-rate limit per client (docs/protocol.md §5.2–§5.4): the validation endpoints', the login
 * form's and the authorization requests'. A client is its address group (`clientAddressGroup`: an IPv6
 * address's /64 network, else the address). `scope` keeps a limit's buckets apart from the others' in
 * the one store: the validation limit's keys are the bare groups, the others' `<scope> <group>`.
 */
export class RequestRateLimit {
  constructor(
    private readonly store: RequestRateStore,
    private readonly clock: Clock,
    private readonly settings: RequestRateSettings,
    private readonly scope?: string,
  ) {}

  /** Throws RateLimitedError, with the whole seconds to wait, when the client has no token left. */
  async admit(clientAddress: string): Promise<void> {
    const { burst, requestsPerSecond } = this.settings;
    const client = clientAddressGroup(clientAddress);
    const key = this.scope === undefined ? client : `${this.scope} ${client}`;
    const waitMs = await this.store.take(key, this.clock.now(), burst, requestsPerSecond);
    if (waitMs > 0) throw new RateLimitedError(Math.max(1, Math.ceil(waitMs / 1000)));
  }
}
