import { MemoryThrottleStore } from '@tessera/adapter-memory';
import { AuthenticationThrottle } from '@tessera/core';
import { TOKENS } from '../tokens.js';
import type { ModuleRegistration } from './registry.js';

/**
 * `throttle`: the lock policy in front of every credential-checking route (adapter-koa's throttle step),
 * its state in the memory throttle store. A shared store (Mongo) replaces the ThrottleStore binding.
 */
export const registerThrottleModule: ModuleRegistration = (binder, config) => {
  binder.resolved(TOKENS.ThrottleStore, [], () => new MemoryThrottleStore({ maxKeys: config.throttle.memory.maxKeys }));
  binder.resolved(
    TOKENS.AuthenticationThrottle,
    [TOKENS.ThrottleStore, TOKENS.Clock, TOKENS.EventSink],
    (store, clock, events) => new AuthenticationThrottle(store, clock, config.throttle.failure, events),
  );
};
