import { cryptoRandomSource, defaultTicketLifetimes, type RegisteredService, type ServicePolicies, type SessionListener } from '@tessera/core';
import { testCore } from '@tessera/testkit';
import { ListServiceRegistry, FixedClock, MapTicketStore, RecordingEvents, TableHandler, service } from './fakes.js';

export const APP = 'https://app.example.org/home';

/** A core wired to fakes: casuser/Mellon with staff/faculty, alice/secret with no attributes; the built-in service policies unless given. */
export function coreWithFakes(services: readonly RegisteredService[] = [service()], sessionListener?: SessionListener, servicePolicies?: ServicePolicies) {
  const clock = new FixedClock();
  const tickets = new MapTicketStore(clock);
  const registry = new ListServiceRegistry(services);
  const events = new RecordingEvents();
  const handler = new TableHandler('table', {
    casuser: { password: 'Mellon', attributes: { memberOf: ['staff', 'faculty'], mail: ['casuser@example.org'] } },
    alice: { password: 'secret' },
  });
  const core = testCore({ tickets, registry, handlers: [handler], clock, random: cryptoRandomSource, nodeName: 'test', lifetimes: defaultTicketLifetimes, events, ...(sessionListener && { sessionListener }), ...(servicePolicies && { servicePolicies }) });
  return { core, clock, tickets, registry, events };
}
