import type { Clock } from '@tessera/core';
import { RedisKeys } from './keys.js';
import { RedisFormTokenStore } from './redis-form-token-store.js';
import { RedisOtpReplayStore } from './redis-otp-replay-store.js';
import { RedisReadinessCheck } from './redis-readiness.js';
import { RedisRequestRateStore } from './redis-request-rate-store.js';
import { RedisServiceRegistry } from './redis-service-registry.js';
import { RedisServiceSessionStore } from './redis-service-session-store.js';
import { RedisThrottleStore } from './redis-throttle-store.js';
import { RedisTicketStore } from './redis-ticket-store.js';
import { RedisUserDirectory } from './redis-user-directory.js';
import type { RedisClient } from './scripts.js';

export interface RedisStores {
  readonly tickets: RedisTicketStore;
  readonly registry: RedisServiceRegistry;
  readonly users: RedisUserDirectory;
  /** For the throttle module: failure counters shared by every node. */
  readonly throttle: RedisThrottleStore;
  /** For the throttle module's validation rate limit: token buckets shared by every node. */
  readonly requestRates: RedisRequestRateStore;
  /** For the otp module: the last accepted TOTP step per user, shared by every node. */
  readonly otpSteps: RedisOtpReplayStore;
  /** For the login module: single-logout records, shared by every node. */
  readonly serviceSessions: RedisServiceSessionStore;
  /** For the login module: used form tokens, shared by every node. */
  readonly formTokens: RedisFormTokenStore;
  readonly readiness: RedisReadinessCheck;
}

/** Every store on one connection (from connectRedis, whose scripts they run), each key after `keyPrefix`. */
export function createRedisStores(client: RedisClient, clock: Clock, keyPrefix: string): RedisStores {
  const keys = new RedisKeys(keyPrefix);
  return {
    tickets: new RedisTicketStore(client, keys, clock),
    registry: new RedisServiceRegistry(client, keys),
    users: new RedisUserDirectory(client, keys),
    throttle: new RedisThrottleStore(client, keys),
    requestRates: new RedisRequestRateStore(client, keys),
    otpSteps: new RedisOtpReplayStore(client, keys),
    serviceSessions: new RedisServiceSessionStore(client, keys, clock),
    formTokens: new RedisFormTokenStore(client, keys, clock),
    readiness: new RedisReadinessCheck(client),
  };
}
