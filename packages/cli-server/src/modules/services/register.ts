import { servicesModule } from '@tessera/adapter-koa/modules/services';
import { RegisterService } from '@tessera/core/modules/services';
import { registrationPolicy } from './config.js';
import { KEYS } from '../../keys.js';
import type { ModuleRegistration } from '../module.js';

/**
 * `services`: register services over REST, into the same ServiceRegistry the core reads for every
 * ST grant and validation, so a saved definition takes effect at once.
 */
export const registerServicesModule: ModuleRegistration = (binder, config) => {
  const policy = registrationPolicy(config.registration);
  binder.resolved(
    KEYS.HttpModule,
    [KEYS.CasCore, KEYS.TicketStore, KEYS.ServiceRegistry, KEYS.RandomSource, KEYS.EventSink, KEYS.ServiceCodec],
    (core, tickets, registry, random, events, codec) =>
      servicesModule({
        codec,
        current: config.registration.current,
        earlier: config.registration.earlier,
        acceptedTypes: config.registration.acceptedTypes,
        registerService: new RegisterService({ authenticator: core.authenticator, tickets, registry, random, events }, policy),
      }),
  );
};
