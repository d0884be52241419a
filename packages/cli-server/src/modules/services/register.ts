import { servicesModule } from '@tessera/adapter-koa/modules/services';
import { RegisterService } from '@tessera/core/modules/services';
import { registrationPolicy, type servicesSections } from './config.js';
import { KEYS } from '../../keys.js';
import type { ModuleRegistration } from '../module.js';

/**
 * `services`: register services over REST, into the same ServiceRegistry the core reads for every
 * ST grant and validation, so a saved definition takes effect at once.
 */
export const registerServicesModule: ModuleRegistration<typeof servicesSections> = (binder, { registration }) => {
  const policy = registrationPolicy(registration);
  binder.resolved(
    KEYS.HttpModule,
    [KEYS.CasCore, KEYS.TicketStore, KEYS.ServiceRegistry, KEYS.RandomSource, KEYS.EventSink, KEYS.ServiceCodec],
    (core, tickets, registry, random, events, codec) =>
      servicesModule({
        codec,
        current: registration.current,
        earlier: registration.earlier,
        acceptedTypes: registration.acceptedTypes,
        registerService: new RegisterService({ authenticator: core.authenticator, tickets, registry, random, events }, policy),
      }),
  );
};
