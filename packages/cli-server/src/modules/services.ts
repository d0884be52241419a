import { servicesModule } from '@tessera/adapter-koa';
import { RegisterService } from '@tessera/core';
import { registrationPolicy } from '../config/registration.js';
import { TOKENS } from '../tokens.js';
import type { ModuleRegistration } from './registry.js';

/**
 * `services`: register services over REST, into the same ServiceRegistry the core reads for every
 * ST grant and validation, so a saved definition takes effect at once.
 */
export const registerServicesModule: ModuleRegistration = (binder, config) => {
  const policy = registrationPolicy(config.registration);
  binder.resolved(
    TOKENS.HttpModule,
    [TOKENS.CasCore, TOKENS.TicketStore, TOKENS.ServiceRegistry, TOKENS.RandomSource, TOKENS.EventSink],
    (core, tickets, registry, random, events) =>
      servicesModule({
        current: config.registration.current,
        earlier: config.registration.earlier,
        acceptedTypes: config.registration.acceptedTypes,
        registerService: new RegisterService({ authenticator: core.authenticator, tickets, registry, random, events }, policy),
      }),
  );
};
