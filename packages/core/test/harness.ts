import {
  AuthenticateUser,
  Authenticator,
  CreateTicketGrantingTicket,
  cryptoRandomSource,
  defaultTicketLifetimes,
  DestroyTicketGrantingTicket,
  GrantServiceTicket,
  ServiceAccess,
  TicketIdGenerator,
  TicketStatus,
  ValidateServiceTicket,
  type CasCore,
  type RegisteredService,
} from '@tessera/core';
import { ListServiceRegistry, FixedClock, MapTicketStore, RecordingEvents, TableHandler, service } from './fakes.js';

export const APP = 'https://app.example.org/home';

/** A core wired to fakes: casuser/Mellon with staff/faculty, alice/secret with no attributes. */
export function coreWithFakes(services: readonly RegisteredService[] = [service()]) {
  const clock = new FixedClock();
  const tickets = new MapTicketStore(clock);
  const registry = new ListServiceRegistry(services);
  const events = new RecordingEvents();
  const handler = new TableHandler('table', {
    casuser: { password: 'Mellon', attributes: { memberOf: ['staff', 'faculty'], mail: ['casuser@example.org'] } },
    alice: { password: 'secret' },
  });
  // The graph the server's container builds, by hand: core's tests need no container.
  const ids = new TicketIdGenerator(cryptoRandomSource, 'test');
  const authenticator = new Authenticator([handler], clock, events);
  const serviceAccess = new ServiceAccess(registry);
  const issuing = [authenticator, serviceAccess, tickets, ids, clock, defaultTicketLifetimes, events] as const;
  const core: CasCore = {
    clock,
    ids,
    lifetimes: defaultTicketLifetimes,
    authenticator,
    serviceAccess,
    createTicketGrantingTicket: new CreateTicketGrantingTicket(...issuing),
    grantServiceTicket: new GrantServiceTicket(...issuing),
    validateServiceTicket: new ValidateServiceTicket(tickets, serviceAccess, events),
    ticketStatus: new TicketStatus(tickets),
    destroyTicketGrantingTicket: new DestroyTicketGrantingTicket(tickets, events),
    authenticateUser: new AuthenticateUser(authenticator, serviceAccess, events),
  };
  return { core, clock, tickets, registry, events };
}
